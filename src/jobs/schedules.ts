import { randomUUID } from 'node:crypto';
import { ValidationError } from '../core/errors.js';
import { toIsoMicro } from '../core/fields/scalar.js';
import { nextOccurrence } from './crontab.js';
import type { Row } from '../core/registry/types.js';
import type { Exec } from '../db/store.js';
import type { Services } from '../ops/services.js';
import type { ScheduleInput } from './run-input.js';

export type NewSchedule = {
  job: Row;
  userId: string | null;
  username: string;
  schedule: ScheduleInput;
  approvalRequired: boolean;
  queue: Row;
  data: Record<string, unknown>;
};

/** A datetime as Python's `str()` prints an aware one (`2026-01-02 03:04:05.123456+00:00`). */
function pythonTime(date: Date): string {
  return toIsoMicro(date).replace('T', ' ').replace('Z', '+00:00');
}

/** When a schedule starts: now for an immediate run, else the given time, else (a crontab) its next occurrence, whole minutes ahead. */
function startOf(schedule: ScheduleInput): Date {
  if (schedule.interval !== 'immediately' && schedule.start_time) return schedule.start_time;
  if (schedule.interval === 'custom' && schedule.crontab) return nextOccurrence(schedule.crontab, new Date());
  return new Date();
}

/**
 * Records a scheduled job (the reference's ScheduledJob.create_schedule): a run awaiting approval
 * (interval `immediately` becomes a one-off `future` run at once), a one-off run later, or a
 * recurring one. Times are UTC.
 */
export async function createSchedule(services: Services, spec: NewSchedule, exec: Exec = services.dialect.db): Promise<Row> {
  const { job, schedule } = spec;
  const start = startOf(schedule);
  const name = schedule.name || `${job.name} - ${pythonTime(start)}`;
  const interval = schedule.interval === 'immediately' ? 'future' : schedule.interval;
  const model = services.registry.get('extras.scheduledjob');
  if ((await services.store.where(exec, model, { name })).length > 0) throw new ValidationError({ schedule: { name: ['scheduled job with this Name already exists.'] } });
  const celery: Record<string, unknown> = { nautobot_job_profile: false, queue: spec.queue.name, nautobot_job_ignore_singleton_lock: false };
  if (Number(job.soft_time_limit) > 0) celery.soft_time_limit = job.soft_time_limit;
  if (Number(job.time_limit) > 0) celery.time_limit = job.time_limit;
  const row: Row = {
    id: randomUUID(), name, task: `${job.module_name}.${job.job_class_name}`, job_model_id: job.id, interval, args: [], kwargs: spec.data,
    celery_kwargs: celery, job_queue_id: spec.queue.id, one_off: interval === 'future', start_time: toIsoMicro(start), time_zone: 'UTC',
    enabled: true, last_run_at: null, total_run_count: 0, date_changed: toIsoMicro(new Date()),
    description: `Nautobot job ${name} scheduled by ${spec.username} for ${pythonTime(start)}`, user_id: spec.userId, approved_by_user_id: null,
    approval_required: spec.approvalRequired, approved_at: null, crontab: schedule.crontab ?? '', queue: String(spec.queue.name),
  };
  await services.store.insert(exec, model, [row]);
  return row;
}
