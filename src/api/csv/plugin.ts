import { toCell, toCsvLines } from '../../ops/csv/cells.js';
import { parseCsvBody } from '../../ops/csv/import.js';
import { ValidationError } from '../../core/errors.js';
import { nullCharacterErrors } from '../plugins/null-characters.js';
import { routeConfig } from '../request-context.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../../ops/services.js';

const LIST_ROUTE = '/api/:app/:path/';
const DETAIL_ROUTE = '/api/:app/:path/:key/';

/** The model a list/detail request names, or undefined for other routes. */
function routeModel(services: Services, req: FastifyRequest) {
  const route = routeConfig(req).url;
  if (route !== LIST_ROUTE && route !== DETAIL_ROUTE) return undefined;
  const { app, path } = req.params as { app: string; path: string };
  return services.registry.byAppPath(app, path);
}

/** CSV bodies (`{__csv}` from the body parser) become the objects a JSON write would carry. */
function convertCsvBody(services: Services, req: FastifyRequest): void {
  const body = req.body as { __csv?: unknown } | undefined;
  if (!body || typeof body !== 'object' || typeof body.__csv !== 'string') return;
  const model = routeModel(services, req);
  if (!model) return;
  const rows = parseCsvBody(model, body.__csv, services.config.limits.csvRows);
  const nul = nullCharacterErrors(rows);
  if (nul) throw new ValidationError(nul);
  // Create through CSV is always a bulk create (the reference cannot tell one row from a list).
  req.body = routeConfig(req).url === DETAIL_ROUTE ? rows[0] : rows;
}

/**
 * An error body as CSV: one row per error object, columns from their keys (reference renderer).
 * A bulk error list gets a leading `row` column (1-based), so rows without errors still count.
 */
export function errorToCsv(body: unknown): string {
  const list = Array.isArray(body);
  const records = (list ? body : [body]).map((r, i) => ({ ...(list ? { row: i + 1 } : {}), ...(r && typeof r === 'object' ? r : {}) }) as Record<string, unknown>);
  const header = [...new Set(records.flatMap((r) => Object.keys(r)))];
  return toCsvLines([header, ...records.map((r) => header.map((h) => toCell(r[h])))]);
}

/** The body of a JSON error to a request that negotiated CSV, as CSV; any other payload as it is. */
function csvError(req: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
  // Decoded only for an error to a CSV request: a success body (a whole page) is passed on untouched.
  if (!req.wantsCsv || reply.statusCode < 400) return payload;
  const text = Buffer.isBuffer(payload) ? payload.toString() : payload;
  if (typeof text !== 'string') return payload;
  if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json') || text === '') return payload;
  reply.header('content-type', 'text/csv; charset=UTF-8');
  return errorToCsv(JSON.parse(text));
}

/**
 * CSV import and error rendering (api-behaviour.md section 12): CSV request bodies on list and
 * detail paths are parsed after authentication; JSON error responses to a request that
 * negotiated CSV are sent as CSV.
 */
export function registerCsv(app: FastifyInstance, services: Services): void {
  // Synchronous: a hook of every request, which most leave at once.
  app.addHook('preHandler', (req, _reply, done) => {
    convertCsvBody(services, req);
    done();
  });
  app.addHook('onSend', (req, reply, payload, done) => done(null, csvError(req, reply, payload)));
}
