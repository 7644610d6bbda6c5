import { NotFoundError, PermissionDeniedError } from '../core/errors.js';
import { hasModelPermission } from '../ops/permissions.js';
import { createAndDispatch } from './dispatch.js';
import { toRowId } from '../core/registry/row-id.js';
import { requirePermission } from '../ops/permissions.js';
import { getRow, notFound } from '../ops/read.js';
import { serialize } from '../ops/serialize/index.js';
import { sendJson } from '../api/crud/respond.js';
import { serializeOptions } from '../api/crud/query.js';
import { queryParams, toRequestContext } from '../api/request-context.js';
import { parseRunInput } from './run-input.js';
import { acceptMultipart, isMultipart, multipartRunBody } from './multipart-input.js';
import { requireWorker, runJob } from './run-job.js';
import { crontabError } from './crontab.js';
import { loadJob } from './sources.js';
import { describeVariable } from './variables.js';
import { registerActionRoute } from './action-route.js';
import { JOB_DOCS } from './openapi.js';
import { contentTypeOf, fileBytes } from './files.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Row } from '../core/registry/types.js';
import type { Action } from '../ops/permissions.js';
import type { RequestContext, Services } from '../ops/services.js';


/** The job a detail path names, by id or by name (the model's lookup field), within what the actor may do (`run` for run/, as the reference restricts). */
async function findJob(services: Services, rc: RequestContext, key: string, action: Action): Promise<Row> {
  return getRow(services, rc, services.registry.get('extras.job'), key, new Map(), action, services.dialect.db);
}

async function variables(services: Services, req: FastifyRequest, reply: FastifyReply) {
  const rc = toRequestContext(req, 'extras-api:job-variables');
  const job = await findJob(services, rc, (req.params as { key: string }).key, 'view');
  const found = await loadJob(services, String(job.module_name), String(job.job_class_name)).catch(() => undefined);
  if (!found) throw new NotFoundError('Not found.');
  const entries = Object.entries(found.definition.variables ?? {}).map(([name, spec]) => describeVariable(name, spec, Boolean(job.dryrun_default)));
  return sendJson(reply, 200, entries);
}

async function run(services: Services, req: FastifyRequest, reply: FastifyReply) {
  const model = services.registry.get('extras.job');
  if (req.actor) requirePermission(services, req.actor, 'run', model);
  const rc = toRequestContext(req, 'extras-api:job-run');
  const job = await findJob(services, rc, (req.params as { key: string }).key, 'run');
  const body = isMultipart(req.body) ? await multipartRunBody(req.body.__multipart) : req.body;
  const outcome = await runJob(services, rc, job, parseRunInput(body, crontabError));
  if ('errors' in outcome) return sendJson(reply, 400, { errors: outcome.errors });
  const opts = serializeOptions(queryParams(req), rc.baseUrl, { method: 'GET' });
  const render = async (id: string, row: Row | null) => (row ? (await serialize(services, services.dialect.db, services.registry.get(id), [row], opts))[0] : null);
  return sendJson(reply, 201, { scheduled_job: await render('extras.scheduledjob', outcome.scheduledJob), job_result: await render('extras.jobresult', outcome.jobResult) });
}

async function logs(services: Services, req: FastifyRequest, reply: FastifyReply) {
  const rc = toRequestContext(req, 'extras-api:jobresult-logs');
  const result = await getRow(services, rc, services.registry.get('extras.jobresult'), (req.params as { key: string }).key, new Map(), 'view', services.dialect.db);
  const entryModel = services.registry.get('extras.joblogentry');
  const rows = (await services.dialect.db.selectFrom(entryModel.table).selectAll().where('job_result_id', '=', result.id).orderBy('created').orderBy('id').execute()).map((r) => services.store.decode(entryModel, r));
  const opts = serializeOptions(queryParams(req), rc.baseUrl, { method: 'GET' });
  return sendJson(reply, 200, await serialize(services, services.dialect.db, entryModel, rows, opts));
}

async function download(services: Services, req: FastifyRequest, reply: FastifyReply) {
  const rc = toRequestContext(req, 'extras-api:fileproxy-download');
  const row = await getRow(services, rc, services.registry.get('extras.fileproxy'), (req.params as { key: string }).key, new Map(), 'view', services.dialect.db);
  const name = String(row.name);
  return reply.code(200).header('Content-Type', contentTypeOf(name))
    .header('Content-Disposition', `attachment; filename="${name.replace(/["\\\r\n]/g, '_')}"`).send(fileBytes(row));
}

/** `git-repositories/{id}/sync/`: runs the system job Git Repository: Sync for the repository (the change permission on repositories needed). */
async function sync(services: Services, req: FastifyRequest, reply: FastifyReply) {
  if (req.actor && !hasModelPermission(services, req.actor, 'change', 'extras.gitrepository')) throw new PermissionDeniedError('This user does not have permission to make changes to Git repositories.');
  await requireWorker(services, 'default');
  const rc = toRequestContext(req, 'extras-api:gitrepository-sync');
  const repositories = services.registry.get('extras.gitrepository');
  const id = toRowId(repositories, (req.params as { key: string }).key);
  const repo = id ? await services.store.byId(services.dialect.db, repositories, id) : undefined;
  if (!repo) throw notFound(repositories);
  const [job] = await services.store.where(services.dialect.db, services.registry.get('extras.job'), { module_name: 'nautobot.core.jobs', job_class_name: 'GitRepositorySync' });
  const data = { repository: repo.id };
  const result = await createAndDispatch(services, { job, userId: rc.actor?.id ?? null, data, queue: 'default' }, { baseUrl: rc.baseUrl });
  const opts = serializeOptions(queryParams(req), rc.baseUrl, { method: 'GET' });
  const rendered = (await serialize(services, services.dialect.db, services.registry.get('extras.jobresult'), [result], opts))[0];
  return sendJson(reply, 200, { message: `Repository ${String(repo.name)} sync job added to queue.`, job_result: rendered });
}

/** Routes of jobs beyond CRUD: variables/, run/ (by id or name), a job result's logs/, a file proxy's download/. */
export function registerJobRoutes(app: FastifyInstance, services: Services): void {
  registerActionRoute(app, services, { url: '/api/extras/jobs/:key/variables/', model: 'extras.job', name: 'Variables', doc: JOB_DOCS.variables, get: variables });
  // run/ also takes multipart/form-data (FileVar uploads), as the reference's MultiPartParser.
  void app.register(async (scope) => {
    acceptMultipart(scope);
    registerActionRoute(scope, services, { url: '/api/extras/jobs/:key/run/', model: 'extras.job', name: 'Run', doc: JOB_DOCS.run, post: run, parses: ['application/json', 'multipart/form-data'] });
  });
  registerActionRoute(app, services, { url: '/api/extras/job-results/:key/logs/', model: 'extras.jobresult', name: 'Logs', doc: JOB_DOCS.logs, get: logs });
  registerActionRoute(app, services, { url: '/api/extras/git-repositories/:key/sync/', model: 'extras.gitrepository', name: 'Sync', doc: JOB_DOCS.sync, post: sync });
  registerActionRoute(app, services, { url: '/api/extras/file-proxies/:key/download/', model: 'extras.fileproxy', name: 'Download', doc: JOB_DOCS.download, get: download });
}
