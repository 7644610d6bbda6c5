import { JobRunner } from './runner.js';
import type { Services } from '../ops/services.js';
import type { JobRun } from './execute.js';

const runners = new WeakMap<Services, JobRunner>();

/** The process's job runner over `services` (made on first use). */
export function runnerFor(services: Services): JobRunner {
  let runner = runners.get(services);
  if (!runner) {
    runner = new JobRunner(services);
    runners.set(services, runner);
  }
  return runner;
}

/**
 * Sends a job result to be run, after the transaction that created it committed. Until the
 * events queue (src/queue) is on main, it runs in this process's worker threads; the promise
 * settles when the run is final (callers do not wait for it).
 */
export function dispatchJob(services: Services, run: JobRun): Promise<void> {
  return runnerFor(services).run(run);
}

/** Stops this process's job threads (app close). */
export async function stopJobs(services: Services): Promise<void> {
  await runners.get(services)?.close();
  runners.delete(services);
}
