import { Worker } from 'node:worker_threads';
import { executeJob } from './execute.js';
import { appendLog, markDone } from './results.js';
import type { Services } from '../ops/services.js';
import type { JobRun } from './execute.js';
import type { WorkerData } from './worker-main.js';

const BOOT = new URL('./worker-boot.mjs', import.meta.url);
const ENTRY = new URL(`./worker-main${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url).href;

type Pending = { run: JobRun; resolve: () => void };
type Slot = { worker: Worker; ready: boolean; current?: Pending & { timer: NodeJS.Timeout }; idle?: NodeJS.Timeout };

/**
 * Runs jobs in worker threads (JOBS_THREADS per process), each with its own database
 * connection, so a slow or crashing job never stalls the API. A job past its hard time limit
 * has its thread terminated and its result failed; a thread that dies mid-job fails its result
 * too. Threads are reused between jobs and replaced when terminated; a thread left idle for
 * JOBS_THREAD_IDLE_MS ends, so its memory (a whole second copy of the services) goes back.
 *
 * An in-memory SQLite database cannot be opened by another thread: there jobs run on the
 * calling thread (the hard limit then fails the result but cannot stop the code).
 */
export class JobRunner {
  private readonly slots: Slot[] = [];
  private readonly waiting: Pending[] = [];
  private closed = false;
  private readonly inflight = new Set<Promise<void>>();

  constructor(private readonly services: Services) {}

  /** Whether jobs run in threads (a database other threads can open). */
  get threaded(): boolean {
    const source = this.services.dialect.source;
    return !!source && source.url !== 'sqlite::memory:' && source.url !== 'sqlite:';
  }

  /** Runs one job; resolves once its result is final (success, failure or killed). */
  run(run: JobRun): Promise<void> {
    if (this.closed) return Promise.resolve();
    const done = this.threaded
      ? new Promise<void>((resolve) => {
        this.waiting.push({ run, resolve });
        this.pump();
      })
      : this.runInline(run);
    this.inflight.add(done);
    void done.finally(() => this.inflight.delete(done));
    return done;
  }

  /** Job threads alive in this process (running a job, or idle until JOBS_THREAD_IDLE_MS ends them). */
  get threadCount(): number {
    return this.slots.length;
  }

  /** Resolves once no job is waiting or running in this process (tests await it instead of polling). */
  async idle(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
  }

  /** Terminates every thread (jobs still running are failed by `fail`). */
  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.waiting.splice(0)) pending.resolve();
    await Promise.all(this.slots.splice(0).map(async (slot) => {
      clearTimeout(slot.idle);
      const current = slot.current;
      slot.current = undefined;
      await slot.worker.terminate();
      if (current) {
        clearTimeout(current.timer);
        await this.fail(current.run, { exc_type: 'WorkerLostError', exc_message: 'The service stopped while the job ran.' }).catch(() => undefined);
        current.resolve();
      }
    }));
  }

  private async runInline(run: JobRun): Promise<void> {
    const timer = setTimeout(() => void this.failTimeLimit(run), run.timeLimit * 1000);
    try {
      await executeJob(this.services, run);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Hands waiting jobs to ready idle threads, starting threads up to JOBS_THREADS. */
  private pump(): void {
    while (this.waiting.length > 0) {
      const idle = this.slots.find((s) => s.ready && !s.current);
      if (!idle) {
        if (this.slots.length < this.services.config.jobs.threads) this.slots.push(this.spawn());
        return;
      }
      this.start(idle, this.waiting.shift()!);
    }
  }

  private start(slot: Slot, pending: Pending): void {
    clearTimeout(slot.idle);
    const timer = setTimeout(() => void this.kill(slot), pending.run.timeLimit * 1000);
    slot.current = { ...pending, timer };
    slot.worker.postMessage({ type: 'run', run: pending.run });
  }

  private spawn(): Slot {
    const data: WorkerData = { entry: ENTRY, config: this.services.config, source: this.services.dialect.source! };
    const worker = new Worker(BOOT, { workerData: data });
    const slot: Slot = { worker, ready: false };
    worker.on('message', (message: { type: string }) => {
      if (message.type === 'ready') slot.ready = true;
      if (message.type === 'done' && slot.current) this.finish(slot);
      this.pump();
      if (slot.ready && !slot.current) this.retireWhenIdle(slot);
    });
    worker.on('error', (err) => void this.lose(slot, err.message));
    worker.on('exit', (code) => void this.lose(slot, `exit code ${code}`));
    return slot;
  }

  /** Ends the thread once it has had nothing to run for JOBS_THREAD_IDLE_MS (0: never). */
  private retireWhenIdle(slot: Slot): void {
    const ms = this.services.config.jobs.threadIdleMs;
    clearTimeout(slot.idle);
    if (ms <= 0) return;
    slot.idle = setTimeout(() => {
      const index = this.slots.indexOf(slot);
      if (index < 0 || slot.current) return;
      this.slots.splice(index, 1);
      void slot.worker.terminate();
    }, ms);
    slot.idle.unref();
  }

  private finish(slot: Slot): void {
    const current = slot.current!;
    clearTimeout(current.timer);
    slot.current = undefined;
    current.resolve();
  }

  /** A thread died (an uncaught error in a job, or an exit): its job fails, the slot is freed. */
  private async lose(slot: Slot, reason: string): Promise<void> {
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    this.slots.splice(index, 1);
    const current = slot.current;
    slot.current = undefined;
    if (current) {
      clearTimeout(current.timer);
      await this.fail(current.run, { exc_type: 'WorkerLostError', exc_message: `Worker exited prematurely: ${reason}.` }).catch(() => undefined);
      current.resolve();
    }
    if (!this.closed) this.pump();
  }

  /** Past the hard time limit: the thread is terminated and the result failed. */
  private async kill(slot: Slot): Promise<void> {
    const current = slot.current;
    if (!current) return;
    slot.current = undefined;
    this.slots.splice(this.slots.indexOf(slot), 1);
    await slot.worker.terminate();
    await this.failTimeLimit(current.run);
    current.resolve();
    this.pump();
  }

  private async failTimeLimit(run: JobRun): Promise<void> {
    const ended = await this.fail(run, { exc_type: 'TimeLimitExceeded', exc_message: `TimeLimitExceeded(${run.timeLimit},)` });
    if (ended) await appendLog(this.services, run.jobResultId, { level: 'failure', grouping: 'post_run', message: `Hard time limit (${run.timeLimit} seconds) exceeded; the job was stopped.` });
  }

  private fail(run: JobRun, result: { exc_type: string; exc_message: string }): Promise<boolean> {
    return markDone(this.services, run.jobResultId, { status: 'FAILURE', result, traceback: `${result.exc_type}: ${result.exc_message}` });
  }
}
