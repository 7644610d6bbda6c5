import { MethodNotAllowedError, PermissionDeniedError } from '../core/errors.js';
import { toRowId } from '../core/registry/row-id.js';
import { toIsoMicro } from '../core/fields/scalar.js';
import { and } from '../db/query/sql-helpers.js';
import { constraintClause, hasModelPermission, requirePermission } from '../ops/permissions.js';
import { getRow, notFound } from '../ops/read.js';
import { serialize } from '../ops/serialize/index.js';
import { sendJson } from '../api/crud/respond.js';
import { serializeOptions } from '../api/crud/query.js';
import { queryParams, toRequestContext } from '../api/request-context.js';
import { createAndDispatch } from './dispatch.js';
import { registerActionRoute } from './action-route.js';
import { JOB_DOCS } from './openapi.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Row } from '../core/registry/types.js';
import type { Action } from '../ops/permissions.js';
import type { Actor, RequestContext, Services } from '../ops/services.js';

/** The reference's `Job.objects.check_perms(user, instance=job, action=...)`: the grant must cover this job. */
async function mayActOnJob(services: Services, actor: Actor | null, jobId: unknown, action: Action): Promise<boolean> {
  if (!actor || actor.is_superuser) return true;
  const model = services.registry.get('extras.job');
  if (!jobId || !hasModelPermission(services, actor, action, model.id)) return false;
  const constraint = constraintClause(services, actor, action, model);
  const where = and([(eb) => eb(`${model.table}.id`, '=', String(jobId)), ...(constraint ? [constraint] : [])]);
  return !!(await services.dialect.db.selectFrom(model.table).select(`${model.table}.id`).where(where).executeTakeFirst());
}

/** A scheduled job by id alone, as the reference's `get_object_or_404(ScheduledJob, pk=pk)`. */
async function scheduleById(services: Services, key: string): Promise<Row> {
  const model = services.registry.get('extras.scheduledjob');
  const id = toRowId(model, key);
  const row = id ? await services.store.byId(services.dialect.db, model, id) : undefined;
  if (!row) throw notFound(model);
  return row;
}

async function render(services: Services, req: FastifyRequest, rc: RequestContext, modelId: string, row: Row) {
  return (await serialize(services, services.dialect.db, services.registry.get(modelId), [row], serializeOptions(queryParams(req), rc.baseUrl, { method: 'GET' })))[0];
}

/** `approve/`: another user than the requester, with the approve permission on the job; a past one-off start needs `?force`. */
async function approve(services: Services, req: FastifyRequest, reply: FastifyReply) {
  const model = services.registry.get('extras.scheduledjob');
  if (req.actor) requirePermission(services, req.actor, 'change', model);
  const rc = toRequestContext(req, 'extras-api:scheduledjob-approve');
  const schedule = await getRow(services, rc, model, (req.params as { key: string }).key, new Map(), 'change', services.dialect.db);
  if (!(await mayActOnJob(services, rc.actor, schedule.job_model_id, 'approve'))) throw new PermissionDeniedError('You do not have permission to approve this request.');
  if (rc.actor && rc.actor.id === schedule.user_id) return sendJson(reply, 403, 'You cannot approve your own job request!');
  const force = queryParams(req).get('force')?.at(-1);
  if (schedule.one_off && new Date(String(schedule.start_time)) < new Date() && !force) {
    return sendJson(reply, 400, "The job's start time is in the past. If you want to force a run anyway, add the `force` query parameter.");
  }
  const changes = { approved_by_user_id: rc.actor?.id ?? null, approved_at: toIsoMicro(new Date()), date_changed: toIsoMicro(new Date()) };
  await services.store.update(services.dialect.db, model, schedule.id, changes);
  return sendJson(reply, 200, await render(services, req, rc, model.id, { ...schedule, ...changes }));
}

/** `deny/`: deletes the request (the delete permission, and the approve permission on the job). */
async function deny(services: Services, req: FastifyRequest, reply: FastifyReply) {
  const model = services.registry.get('extras.scheduledjob');
  if (req.actor) requirePermission(services, req.actor, 'delete', model);
  const schedule = await scheduleById(services, (req.params as { key: string }).key);
  if (!(await mayActOnJob(services, req.actor, schedule.job_model_id, 'approve'))) throw new PermissionDeniedError('You do not have permission to deny this request.');
  await services.store.deleteIds(services.dialect.db, model, [schedule.id]);
  return sendJson(reply, 200, null);
}

/** `dry-run/`: runs the scheduled job's job now with `dryrun` set, without approval. */
async function dryRun(services: Services, req: FastifyRequest, reply: FastifyReply) {
  const model = services.registry.get('extras.scheduledjob');
  if (req.actor) requirePermission(services, req.actor, 'view', model);
  const rc = toRequestContext(req, 'extras-api:scheduledjob-dry-run');
  const schedule = await scheduleById(services, (req.params as { key: string }).key);
  const job = schedule.job_model_id ? await services.store.byId(services.dialect.db, services.registry.get('extras.job'), String(schedule.job_model_id)) : undefined;
  const allow = 'POST, OPTIONS';
  if (!job || !job.enabled || !job.installed || (job.has_sensitive_variables && job.approval_required)) throw new MethodNotAllowedError('This job cannot be dry-run at this time.', allow);
  if (!job.supports_dryrun) throw new MethodNotAllowedError('This job does not support dry-run.', allow);
  if (!(await mayActOnJob(services, rc.actor, job.id, 'run'))) throw new PermissionDeniedError('You do not have permission to run this job.');
  const data = { ...((schedule.kwargs as Record<string, unknown>) ?? {}), dryrun: true };
  const result = await createAndDispatch(services, { job, userId: rc.actor?.id ?? null, data, queue: String(schedule.queue || 'default') }, { baseUrl: rc.baseUrl });
  return sendJson(reply, 200, await render(services, req, rc, 'extras.jobresult', result));
}

/** The scheduled jobs' approval actions (POST only). */
export function registerScheduleRoutes(app: FastifyInstance, services: Services): void {
  const model = 'extras.scheduledjob';
  registerActionRoute(app, services, { url: '/api/extras/scheduled-jobs/:key/approve/', model, name: 'Approve', doc: JOB_DOCS.approve, post: approve });
  registerActionRoute(app, services, { url: '/api/extras/scheduled-jobs/:key/deny/', model, name: 'Deny', doc: JOB_DOCS.deny, post: deny });
  registerActionRoute(app, services, { url: '/api/extras/scheduled-jobs/:key/dry-run/', model, name: 'Dry Run', doc: JOB_DOCS.dryRun, post: dryRun });
}
