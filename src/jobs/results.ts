import { dropInputs } from './inputs.js';
import { randomUUID } from 'node:crypto';
import { toIsoMicro } from '../core/fields/scalar.js';
import { newChangeId } from '../ops/write/change-id.js';
import type { Row } from '../core/registry/types.js';
import type { Exec } from '../db/store.js';
import type { Services } from '../ops/services.js';
import type { LogLevel } from './contract.js';

/** States a job result never leaves (the reference's READY_STATES). */
export const FINAL_STATES = ['SUCCESS', 'FAILURE', 'REVOKED'] as const;

const now = () => toIsoMicro(new Date());

export type NewJobResult = {
  job: Row;
  userId: string | null;
  /** The cleaned input, stored as `task_kwargs` unless the job has sensitive variables. */
  data: Record<string, unknown>;
  scheduledJobId?: string | null;
  queue: string;
};

/** A PENDING job result for one run of `job` (reference JobResult.enqueue_job). */
export async function createJobResult(services: Services, exec: Exec, spec: NewJobResult): Promise<Row> {
  const { job } = spec;
  const celery: Record<string, unknown> = { nautobot_job_job_model_id: job.id, nautobot_job_profile: false, nautobot_job_user_id: spec.userId, nautobot_job_ignore_singleton_lock: false, queue: spec.queue };
  if (spec.scheduledJobId) celery.nautobot_job_schedule_id = spec.scheduledJobId;
  if (Number(job.soft_time_limit) > 0) celery.soft_time_limit = job.soft_time_limit;
  if (Number(job.time_limit) > 0) celery.time_limit = job.time_limit;
  const row: Row = {
    id: randomUUID(), job_model_id: job.id, name: job.name, task_name: `${job.module_name}.${job.job_class_name}`,
    date_created: now(), date_started: null, date_done: null, user_id: spec.userId, status: 'PENDING', result: null,
    worker: null, task_args: [], task_kwargs: job.has_sensitive_variables ? {} : spec.data, celery_kwargs: celery,
    traceback: null, meta: null, scheduled_job_id: spec.scheduledJobId ?? null, _custom_field_data: {},
  };
  await services.store.insert(exec, services.registry.get('extras.jobresult'), [row]);
  return row;
}

/** Marks a pending run started by `worker`; false when it was no longer pending (revoked, or taken). */
export async function markStarted(services: Services, id: string, worker: string): Promise<boolean> {
  return services.dialect.db.transaction().execute(async (trx) => {
    const res = await trx.updateTable('extras_jobresult')
      .set({ status: 'STARTED', date_started: now(), worker })
      .where('id', '=', id).where('status', 'in', ['PENDING', 'RECEIVED', 'RETRY']).executeTakeFirst();
    // The running job holds its inputs now: the stored copy goes (inputs.ts).
    await dropInputs(trx, id);
    return Number(res.numUpdatedRows) > 0;
  });
}

export type Outcome = { status: 'SUCCESS' | 'FAILURE' | 'REVOKED'; result: unknown; traceback?: string | null };

/**
 * Ends a run unless it already ended (a worker that finished just before its time limit keeps
 * its own outcome); returns whether this call ended it.
 */
export async function markDone(services: Services, id: string, outcome: Outcome): Promise<boolean> {
  const model = services.registry.get('extras.jobresult');
  const values = services.store.encode(model, { status: outcome.status, result: outcome.result ?? null, traceback: outcome.traceback ?? null, date_done: now() });
  return services.dialect.db.transaction().execute(async (trx) => {
    const res = await trx.updateTable('extras_jobresult').set(values)
      .where('id', '=', id).where('status', 'not in', [...FINAL_STATES]).executeTakeFirst();
    await dropInputs(trx, id);
    return Number(res.numUpdatedRows) > 0;
  });
}

export type LogEntry = { level: LogLevel; message: string; grouping?: string; log_object?: string; absolute_url?: string };

/** Appends one job log entry, committed at once (visible while the job runs, kept if it fails). */
export async function appendLog(services: Services, jobResultId: string, entry: LogEntry): Promise<void> {
  // Time-ordered ids (UUIDv7): entries of one millisecond keep their order (`created`, then `id`).
  await services.store.insert(services.dialect.db, services.registry.get('extras.joblogentry'), [{
    id: newChangeId(), job_result_id: jobResultId, log_level: entry.level, grouping: (entry.grouping ?? 'main').slice(0, 100),
    message: entry.message, created: now(), log_object: (entry.log_object ?? '').slice(0, 200), absolute_url: (entry.absolute_url ?? '').slice(0, 255),
  }]);
}
