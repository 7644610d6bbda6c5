import { toIsoMicro } from '../core/fields/scalar.js';
import { previousOccurrence } from './crontab.js';
import { dispatchJob, expectRun } from './dispatch.js';
import { createJobResult } from './results.js';
import { failOverdueRuns } from './overdue.js';
import type { Row } from '../core/registry/types.js';
import type { Services } from '../ops/services.js';

const PERIOD_MS: Record<string, number> = { hourly: 3_600_000, daily: 86_400_000, weekly: 604_800_000 };

/**
 * The occurrence of a schedule due at `now` and not yet fired (after `last_run_at`): a one-off's
 * start, or the latest occurrence of a recurring one (occurrences missed while no process ran
 * fire once, as the reference's beat does), or null.
 */
export function dueOccurrence(row: Row, now: Date): Date | null {
  const start = new Date(String(row.start_time));
  const last = row.last_run_at ? new Date(String(row.last_run_at)) : null;
  if (start > now) return null;
  let occurrence: Date;
  if (row.interval === 'future') occurrence = start;
  else if (PERIOD_MS[String(row.interval)]) {
    const period = PERIOD_MS[String(row.interval)];
    occurrence = new Date(start.getTime() + Math.floor((now.getTime() - start.getTime()) / period) * period);
  } else if (row.interval === 'custom' && row.crontab) {
    occurrence = previousOccurrence(String(row.crontab), now);
    if (occurrence < start) return null;
  } else return null;
  return !last || occurrence > last ? occurrence : null;
}

/**
 * Claims one occurrence and creates its job result, in one transaction: the claim moves
 * `last_run_at` from the value read to the occurrence, so of several processes seeing the same
 * due schedule exactly one wins. Returns the job result to dispatch, or null when another won.
 */
async function claimOccurrence(services: Services, schedule: Row, job: Row, occurrence: Date): Promise<Row | null> {
  return services.dialect.db.transaction().execute(async (trx) => {
    let claim = trx.updateTable('extras_scheduledjob')
      .set({ last_run_at: toIsoMicro(occurrence), total_run_count: Number(schedule.total_run_count ?? 0) + 1, ...(schedule.one_off ? { enabled: services.dialect.encode('boolean', false) } : {}) })
      .where('id', '=', schedule.id);
    claim = schedule.last_run_at ? claim.where('last_run_at', '=', String(schedule.last_run_at)) : claim.where('last_run_at', 'is', null);
    if (Number((await claim.executeTakeFirst()).numUpdatedRows) === 0) return null;
    const queue = typeof schedule.queue === 'string' && schedule.queue ? schedule.queue : 'default';
    const data = (schedule.kwargs as Record<string, unknown>) ?? {};
    const result = await createJobResult(services, trx, { job, userId: schedule.user_id ? String(schedule.user_id) : null, data, scheduledJobId: String(schedule.id), queue });
    await dispatchJob(services, { jobResultId: result.id, data, baseUrl: '', timeLimit: Number(job.time_limit) || services.config.jobs.timeLimit }, { exec: trx });
    return result;
  });
}

/** Fires every enabled (and, where needed, approved) schedule due at `now`; returns the job results it created. */
export async function fireDueSchedules(services: Services, now: Date = new Date()): Promise<Row[]> {
  const model = services.registry.get('extras.scheduledjob');
  const raw = await services.dialect.db.selectFrom(model.table).selectAll()
    .where('enabled', '=', services.dialect.encode('boolean', true) as never)
    .where('start_time', '<=', toIsoMicro(now)).execute();
  const fired: Row[] = [];
  for (const schedule of raw.map((r) => services.store.decode(model, r))) {
    if (schedule.approval_required && !schedule.approved_at) continue;
    const occurrence = dueOccurrence(schedule, now);
    const job = occurrence && schedule.job_model_id ? await services.store.byId(services.dialect.db, services.registry.get('extras.job'), String(schedule.job_model_id)) : undefined;
    if (!occurrence || !job) continue;
    const result = await claimOccurrence(services, schedule, job, occurrence);
    if (!result) continue;
    expectRun(services, result.id);
    fired.push(result);
  }
  if (fired.length > 0) for (const listener of services.committed) listener();
  return fired;
}

/** The scheduler's time: the real clock, or JOBS_SCHEDULER_CLOCK's (tests run minutes in seconds). */
export function schedulerNow(services: Services): Date {
  const clock = services.config.jobs.schedulerClock;
  return clock ? new Date(clock.clockMs + Math.max(0, Date.now() - clock.realMs) * clock.speed) : new Date();
}

/** Looks for due schedules every JOBS_SCHEDULER_MS in this process (service or `inventory worker`); returns the stop function. */
export function startScheduler(services: Services, onError: (err: unknown) => void): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    // Each look also fails runs a lost worker left STARTED past any possible end (overdue.ts).
    Promise.all([fireDueSchedules(services, schedulerNow(services)), failOverdueRuns(services)]).catch(onError).finally(() => { running = false; });
  }, services.config.jobs.schedulerMs);
  timer.unref();
  return () => clearInterval(timer);
}
