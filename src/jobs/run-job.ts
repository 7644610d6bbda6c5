import { MethodNotAllowedError, PermissionDeniedError, UnavailableError, ValidationError } from '../core/errors.js';
import { hasModelPermission } from '../ops/permissions.js';
import { storeUploads } from './uploads.js';
import { createSchedule } from './schedules.js';
import { createAndDispatch } from './dispatch.js';
import { liveWorkers } from '../queue/index.js';
import { loadJob } from './sources.js';
import { validateJobData } from './variables.js';
import { findModel } from './context.js';
import { toRowId } from '../core/registry/row-id.js';
import { fromCompositeKey } from '../core/natural-key.js';
import { resolveNaturalKey } from '../ops/references/natural-key-lookup.js';
import type { Row } from '../core/registry/types.js';
import type { Exec } from '../db/store.js';
import type { RequestContext, Services } from '../ops/services.js';
import type { RunInput } from './run-input.js';
import type { ObjectLookup } from './variables.js';

/** A run's answer: the reference's `{scheduled_job, job_result}` (one of them set), or the form's errors. */
export type RunOutcome = { errors: unknown } | { jobResult: Row | null; scheduledJob: Row | null };

/**
 * Objects by reference: an id, or for a model with a natural key of one field (a content type's
 * `app_label.model`, a name) that value; limited to the rows matching `filters` (plain fields).
 */
export function objectLookup(services: Services): ObjectLookup {
  return async (modelName, refs, filters) => {
    const model = findModel(services.registry, modelName);
    const out = new Map<string, string>();
    if (!model || refs.length === 0) return out;
    let query = services.dialect.db.selectFrom(model.table).selectAll(model.table);
    for (const [key, value] of Object.entries(filters ?? {})) {
      const column = model.fieldMap.get(key)?.column;
      if (column) query = query.where(column, '=', value as never);
    }
    const ids = refs.map((ref) => toRowId(model, ref)).filter((id): id is string => !!id);
    const byKey = refs.filter((ref) => !toRowId(model, ref));
    const rows = ids.length > 0 ? await query.where('id', 'in', ids).execute() : [];
    for (const row of rows) out.set(String(row.id), String(row.id));
    for (const ref of byKey) {
      const [match] = await resolveNaturalKey(services, services.dialect.db, model, fromCompositeKey(model.id === 'contenttypes.contenttype' ? ref.replace('.', ';') : ref));
      if (match && (!filters || (await query.where('id', '=', match as never).executeTakeFirst()))) out.set(ref, match);
    }
    return out;
  };
}

/** The reference's checks before any input is read (JobViewSet.run). */
function checkRunnable(services: Services, rc: RequestContext, job: Row, input: RunInput): void {
  if (rc.actor && !hasModelPermission(services, rc.actor, 'run', 'extras.job')) throw new PermissionDeniedError('This user does not have permission to run jobs.');
  if (!job.enabled) throw new PermissionDeniedError('This job is not enabled to be run.');
  if (!job.installed) throw new MethodNotAllowedError('POST', 'POST, OPTIONS', 'This job is not presently installed and cannot be run');
  if (!job.has_sensitive_variables) return;
  if (input.schedule && input.schedule.interval !== 'immediately') throw new ValidationError({ schedule: { interval: ['Unable to schedule job: Job may have sensitive input variables'] } });
  if (job.approval_required) {
    throw new ValidationError(['Unable to run or schedule job: This job is flagged as possibly having sensitive variables but is also flagged as requiring approval.One of these two flags must be removed before this job can be scheduled or run.']);
  }
}

/** 503 when no runner (the embedded one or an `inventory worker`) is alive to take the run, as the reference without celery workers. */
export async function requireWorker(services: Services, queue: string): Promise<void> {
  if ((await liveWorkers(services)) === 0) throw new UnavailableError(`Unable to process request: No celery workers running on queue ${queue}.`);
}

/** The queue a run goes to: the one asked for (among the job's), else the job's default. */
async function chooseQueue(services: Services, job: Row, asked: string | undefined): Promise<Row> {
  const names = Array.isArray(job.task_queues) && job.task_queues.length > 0 ? job.task_queues.map(String) : ['default'];
  const queueModel = services.registry.get('extras.jobqueue');
  if (asked === undefined) return (await services.store.byId(services.dialect.db, queueModel, String(job.default_job_queue_id)))!;
  if (!names.includes(asked)) throw new ValidationError({ task_queue: [`"${asked}" is not a valid choice.`] });
  const [queue] = await services.store.where(services.dialect.db, queueModel, { name: asked });
  return queue ?? (await services.store.byId(services.dialect.db, queueModel, String(job.default_job_queue_id)))!;
}

/**
 * `POST /api/extras/jobs/{id}/run/` without HTTP: validates the request as the reference does,
 * then either records a scheduled job (a schedule, or a run awaiting approval) or creates a
 * PENDING job result and dispatches it.
 */
export async function runJob(services: Services, rc: RequestContext, job: Row, input: RunInput): Promise<RunOutcome> {
  checkRunnable(services, rc, job, input);
  // Code that cannot be obtained (a Git repository's clone failing) is code that cannot be located, as the reference's `job_class`.
  const found = await loadJob(services, String(job.module_name), String(job.job_class_name)).catch(() => undefined);
  if (!found) throw new MethodNotAllowedError('POST', 'POST, OPTIONS', "This job's source code could not be located and cannot be run");
  const queue = await chooseQueue(services, job, input.queue);
  if (!input.data || typeof input.data !== 'object' || Array.isArray(input.data)) return { errors: ['Job data needs to be a dict'] };
  const variables = found.definition.variables ?? {};
  const checked = await validateJobData(variables, input.data as Record<string, unknown>, { dryrunDefault: Boolean(job.dryrun_default), lookup: objectLookup(services) });
  if ('errors' in checked) return { errors: checked.errors };
  await requireWorker(services, String(queue.name));
  const dryrun = found.definition.variables?.dryrun?.type === 'DryRunVar' && checked.data.dryrun === true;
  const approvalRequired = Boolean(job.approval_required) && !dryrun;
  let schedule = input.schedule;
  if (!schedule && approvalRequired) schedule = { interval: 'immediately' };
  else if (schedule?.interval === 'immediately' && !approvalRequired) schedule = undefined;
  const userId = rc.actor && !rc.actor.anonymous ? rc.actor.id : null;
  // Uploaded files become file proxies whose ids are stored (uploads.ts), with the run or schedule.
  const store = (exec: Exec) => storeUploads(services, exec, variables, checked.data);
  if (schedule) {
    const spec = { job, userId, username: rc.actor?.username ?? '', schedule, approvalRequired, queue };
    const scheduledJob = await services.dialect.db.transaction().execute(async (trx) => createSchedule(services, { ...spec, data: await store(trx) }, trx));
    return { jobResult: null, scheduledJob };
  }
  const jobResult = await createAndDispatch(services, { job, userId, data: checked.data, queue: String(queue.name) }, { baseUrl: rc.baseUrl, prepare: store });
  return { jobResult, scheduledJob: null };
}
