import { markDone } from './results.js';
import type { Services } from '../ops/services.js';

/** What a run past any possible end fails with. */
const LOST = 'The run outlived its hard time limit and its worker never ended it (the worker was lost).';

/**
 * Fails the runs still STARTED past their hard time limit plus a queue lease and a minute: a live
 * worker ends every run by then (the hard limit kills it), so such a run's worker was lost and no
 * queue attempt is left to notice (e.g. a second worker died too). Returns the ids it failed.
 * The last guard of "never STARTED forever"; the queue's second attempt is the first.
 */
export async function failOverdueRuns(services: Services, now: Date = new Date()): Promise<string[]> {
  const started = await services.dialect.db.selectFrom('extras_jobresult as r').leftJoin('extras_job as j', 'j.id', 'r.job_model_id')
    .select(['r.id as id', 'r.date_started as date_started', 'j.time_limit as time_limit']).where('r.status', '=', 'STARTED').execute();
  const failed: string[] = [];
  for (const run of started) {
    const limitMs = (Number(run.time_limit) || services.config.jobs.timeLimit) * 1000 + services.config.queue.leaseMs + 60_000;
    if (!run.date_started || new Date(run.date_started as string | Date).getTime() + limitMs > now.getTime()) continue;
    if (await markDone(services, String(run.id), { status: 'FAILURE', result: { exc_type: 'WorkerLostError', exc_message: LOST }, traceback: `WorkerLostError: ${LOST}` })) failed.push(String(run.id));
  }
  return failed;
}
