import { Readable } from 'node:stream';
import { queryParams, toRequestContext } from '../request-context.js';
import { buildCsvPlan, openCsvExport, rowsToCsv } from '../../ops/csv/export.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ResolvedModel, Row } from '../../core/registry/types.js';
import type { Services } from '../../ops/services.js';

/** `text/csv` with the reference's charset and download name (`nautobot_location_data.csv`). */
function csvHeaders(reply: FastifyReply, model: ResolvedModel): FastifyReply {
  return reply
    .header('content-type', 'text/csv; charset=UTF-8')
    .header('content-disposition', `attachment; filename="nautobot_${model.model}_data.csv"`);
}

/**
 * List GET as CSV: the whole filtered, sorted result (no pagination), streamed batch by
 * batch. Errors in the filters surface as ordinary error responses before streaming starts.
 */
export async function sendCsvList(services: Services, req: FastifyRequest, reply: FastifyReply, model: ResolvedModel): Promise<FastifyReply> {
  const rc = toRequestContext(req, '');
  const params = queryParams(req);
  const plan = await buildCsvPlan(services, model, { baseUrl: rc.baseUrl });
  const chunks = await openCsvExport(plan, rc, { params, sort: params.get('sort')?.at(-1) });
  csvHeaders(reply.code(200), model);
  if (req.method === 'HEAD') return reply.send('');
  const stream = Readable.from(chunks, { objectMode: false });
  stream.on('error', (err) => req.log.error(err));
  return reply.send(stream);
}

/** Objects already read or written (detail GET, write responses) as one CSV document. */
export async function sendCsvRows(services: Services, req: FastifyRequest, reply: FastifyReply, model: ResolvedModel, rows: Row[], opts: { status: number; omitCounts?: boolean }): Promise<FastifyReply> {
  const plan = await buildCsvPlan(services, model, { baseUrl: toRequestContext(req, '').baseUrl, omitCounts: opts.omitCounts });
  const text = await rowsToCsv(plan, rows);
  return csvHeaders(reply.code(opts.status), model).send(req.method === 'HEAD' ? '' : text);
}
