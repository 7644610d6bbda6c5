import { declareQueueKind, enqueue } from '../queue/index.js';
import { JobRunner } from './runner.js';
import { keepInputs } from './inputs.js';
import { createJobResult } from './results.js';
import type { Exec } from '../db/store.js';
import type { Row } from '../core/registry/types.js';
import type { Services } from '../ops/services.js';
import type { JobRun } from './execute.js';
import type { NewJobResult } from './results.js';

/** The queue kind of a job run (its payload: a JobRun). */
export const JOB_KIND = 'job';
declareQueueKind(JOB_KIND);

/**
 * Attempts of a job's queue row: the second only happens when the worker that held the first
 * died (its lease ran out) or stopped; it fails a run left STARTED and runs one never started.
 */
export const JOB_ATTEMPTS = 2;

const runners = new WeakMap<Services, JobRunner>();
/** Runs dispatched from this process and not yet settled by a handler of this process (tests await them). */
const dispatched = new WeakMap<Services, Map<string, { done: Promise<void>; settle: () => void }>>();
/** Runs a handler of this process finished before their dispatch was recorded (the row woke a runner first). */
const settledEarly = new WeakMap<Services, Set<string>>();

/** The process's job threads over `services` (made on first use). */
export function runnerFor(services: Services): JobRunner {
  let runner = runners.get(services);
  if (!runner) {
    runner = new JobRunner(services);
    runners.set(services, runner);
  }
  return runner;
}

/**
 * Queues a job run (queue kind `job`, see queue-kinds.ts): with `exec`, in that transaction, so
 * it exists exactly when the job result does. Any runner (the service's embedded one, or an
 * `inventory worker`) takes it and runs it in its job threads.
 */
export async function dispatchJob(services: Services, run: JobRun, opts: { exec?: Exec } = {}): Promise<void> {
  const { data, ...payload } = run;
  const queueRun = async (exec: Exec) => {
    // The inputs stay out of the queue row (kept after the run): see inputs.ts.
    await keepInputs(exec, run.jobResultId, data);
    await enqueue(services, JOB_KIND, payload, { exec, maxAttempts: JOB_ATTEMPTS, backoffMs: 0 });
  };
  if (opts.exec) return queueRun(opts.exec);
  await services.dialect.db.transaction().execute(queueRun);
  expectRun(services, run.jobResultId);
}

/** Records that this process dispatched a run whose queue row committed (`idleJobs` waits for it). */
export function expectRun(services: Services, jobResultId: string): void {
  let settle = () => undefined as void;
  const done = new Promise<void>((resolve) => { settle = resolve; });
  if (settledEarly.get(services)?.delete(jobResultId)) return;
  const pending = dispatched.get(services) ?? new Map();
  dispatched.set(services, pending);
  if (!pending.has(jobResultId)) pending.set(jobResultId, { done, settle });
}

/**
 * Creates a job result and queues its run in one transaction, then wakes this process's runner.
 * `prepare`, in that transaction, turns the cleaned input into what is stored (uploads into file proxies).
 */
export async function createAndDispatch(services: Services, spec: NewJobResult, run: { baseUrl: string; prepare?: (exec: Exec) => Promise<Record<string, unknown>> }): Promise<Row> {
  const result = await services.dialect.db.transaction().execute(async (trx) => {
    const data = run.prepare ? await run.prepare(trx) : spec.data;
    const row = await createJobResult(services, trx, { ...spec, data });
    await dispatchJob(services, { jobResultId: row.id, data, baseUrl: run.baseUrl, timeLimit: Number(spec.job.time_limit) || services.config.jobs.timeLimit }, { exec: trx });
    return row;
  });
  expectRun(services, result.id);
  for (const listener of services.committed) listener();
  return result;
}

/** Marks a dispatched run handled (called by the job kind's handler). */
export function settleDispatch(services: Services, jobResultId: string): void {
  const entry = dispatched.get(services)?.get(jobResultId);
  if (!entry) {
    const early = settledEarly.get(services) ?? new Set();
    settledEarly.set(services, early);
    // Runs dispatched by other processes are never expected here: keep the set small.
    if (early.size >= 1000) early.clear();
    early.add(jobResultId);
    return;
  }
  dispatched.get(services)!.delete(jobResultId);
  entry.settle();
}

/** Resolves once every run this process dispatched was handled here and its threads are idle (tests). */
export async function idleJobs(services: Services): Promise<void> {
  for (;;) {
    const pending = [...(dispatched.get(services)?.values() ?? [])];
    if (pending.length === 0) break;
    await Promise.all(pending.map((p) => p.done));
  }
  await runnerFor(services).idle();
}

/** Stops this process's job threads (app close, runner stop). */
export async function stopJobs(services: Services): Promise<void> {
  await runners.get(services)?.close();
  runners.delete(services);
}
