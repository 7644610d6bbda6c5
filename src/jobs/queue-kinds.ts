import { JOB_KIND, runnerFor, settleDispatch, stopJobs } from './dispatch.js';
import { markDone } from './results.js';
import { readInputs } from './inputs.js';
import { enqueueJobHooks } from './job-hooks.js';
import { FINAL_STATES } from './results.js';
import type { GiveUpContext, QueueRunner } from '../queue/index.js';
import type { OutboxSubscriber } from '../events/publisher.js';
import type { Services } from '../ops/services.js';
import type { JobRun } from './execute.js';

/** A job's queue row payload: the run without its inputs (inputs.ts; rows queued before them carried `data`). */
type QueuedRun = Omit<JobRun, 'data'> & { data?: Record<string, unknown> };


async function statusOf(services: Services, id: string): Promise<string | undefined> {
  const row = await services.dialect.db.selectFrom('extras_jobresult').select('status').where('id', '=', id).executeTakeFirst();
  return row?.status as string | undefined;
}

/**
 * Runs a job's queue row in this process's job threads. A result already final is left alone;
 * one a dead worker left STARTED is failed (never run twice, never STARTED forever).
 */
async function runJobRow(services: Services, queued: QueuedRun, attempt: number, signal: AbortSignal): Promise<unknown> {
  const run: JobRun = { ...queued, data: queued.data ?? await readInputs(services.dialect.db, queued.jobResultId) ?? {} };
  try {
    const status = await statusOf(services, run.jobResultId);
    if (!status || (FINAL_STATES as readonly string[]).includes(status)) return { job_result: run.jobResultId, skipped: status ?? 'missing' };
    if (status === 'STARTED' && attempt > 1) {
      await markDone(services, run.jobResultId, { status: 'FAILURE', result: { exc_type: 'WorkerLostError', exc_message: 'The worker running the job stopped before it ended.' }, traceback: 'WorkerLostError: The worker running the job stopped before it ended.' });
      return { job_result: run.jobResultId, failed: 'worker lost' };
    }
    // A runner that stops (the service or `inventory worker` shutting down) ends its jobs as failed.
    const onStop = () => void stopJobs(services);
    signal.addEventListener('abort', onStop, { once: true });
    await runnerFor(services).run(run).finally(() => signal.removeEventListener('abort', onStop));
    return { job_result: run.jobResultId };
  } finally {
    settleDispatch(services, run.jobResultId);
  }
}

/**
 * The queue gave a job's row up (attempts spent: its workers died, or the handler kept failing):
 * a result not yet final ends FAILURE, as the reference marks a lost worker (WorkerLostError).
 */
async function failGivenUpRun(services: Services, queued: QueuedRun, ctx: GiveUpContext): Promise<void> {
  try {
    const message = `${ctx.reason} (queue row ${ctx.id}, ${Math.min(ctx.attempts, ctx.maxAttempts)} of ${ctx.maxAttempts} attempts)`;
    await markDone(services, queued.jobResultId, { status: 'FAILURE', result: { exc_type: 'WorkerLostError', exc_message: message }, traceback: `WorkerLostError: ${message}` });
  } finally {
    settleDispatch(services, queued.jobResultId);
  }
}

/** Registers the job kind on a queue runner; returns the outbox subscribers of jobs (job hooks). */
export function registerJobKinds(runner: QueueRunner, services: Services): OutboxSubscriber[] {
  runner.handle(JOB_KIND, (payload: QueuedRun, ctx) => runJobRow(ctx.services, payload, ctx.attempt, ctx.signal), {
    onGiveUp: (payload: QueuedRun, ctx) => failGivenUpRun(ctx.services, payload, ctx),
  });
  return [(changes, exec) => enqueueJobHooks(services, changes, exec)];
}
