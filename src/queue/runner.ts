import { EventEmitter } from 'node:events';
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import { housekeeping, uncounted } from '../db/dialects/dialect.js';
import { checkLease } from '../core/config.js';
import { QUEUE_CHANNEL, beat, removeWorkers } from './store.js';
import { tableBackend } from './backend.js';
import { pgBossBackend, usesPgBoss } from './pg-boss.js';
import type { QueueBackend } from './backend.js';
import type { ClaimedItem } from './store.js';
import type { Services } from '../ops/services.js';

/** What a handler gets besides its payload. */
export type HandlerContext = {
  services: Services;
  id: number;
  kind: string;
  /** 1 for the first attempt. */
  attempt: number;
  maxAttempts: number;
  /** Aborted when the runner stops: the row is released (the attempt not counted) and runs again later. */
  signal: AbortSignal;
};

/**
 * Runs one queue row. What it returns is stored as the row's result. A throw is a failed attempt:
 * the row runs again after its backoff until its attempts are spent; a `PermanentError` ends it
 * at once.
 */
export type QueueHandler = (payload: any, ctx: HandlerContext) => Promise<unknown>;

/** What a kind's give-up hook gets besides the payload. */
export type GiveUpContext = {
  services: Services;
  id: number;
  kind: string;
  /** Attempts made (one more than `maxAttempts` when a dead worker's row is taken to be given up). */
  attempts: number;
  maxAttempts: number;
  /** Why the row ends failed: the last attempt's error, or that workers stopped while running it. */
  reason: string;
};

/**
 * Told once a row ends failed for good (attempts spent, a `PermanentError`, or a worker that
 * died running its last attempt), before the row is marked failed: a crash in between tells it
 * again (at least once), so it must be idempotent. It writes in transactions of its own; a throw
 * leaves the row leased, taken again (and the hook called again) once the lease runs out.
 */
export type GiveUpHook = (payload: any, ctx: GiveUpContext) => Promise<void>;

/** A kind's handler and its optional give-up hook. */
export type KindHandlers = { onGiveUp?: GiveUpHook };

/** What a runner tells after recording an attempt's outcome (`queueEvents`). */
/** `running`: a give-up hook threw, the row stays leased and is given up again after its lease. */
export type AttemptOutcome = { id: number; kind: string; attempt: number; state: 'done' | 'failed' | 'queued' | 'running' };

const emitters = new WeakMap<Services, EventEmitter>();

/** This process's runners over `services` emit `attempt` (an AttemptOutcome) after each attempt is recorded. */
export function queueEvents(services: Services): EventEmitter {
  let emitter = emitters.get(services);
  if (!emitter) emitters.set(services, (emitter = new EventEmitter().setMaxListeners(0)));
  return emitter;
}

/** A failure that retrying cannot mend (bad payload, object gone). */
export class PermanentError extends Error {}

export type RunnerOptions = {
  /** Rows run at once by this runner. */
  concurrency: number;
  /** Milliseconds between looks at the table when nothing woke the runner (other processes' rows on SQLite, retries due). */
  pollMs: number;
  /** Milliseconds a claimed row stays leased without a heartbeat (a dead worker's rows run again after it). */
  leaseMs: number;
};

/** Heartbeats: a worker is live while its last one is younger than three of them. */
export const HEARTBEAT_MS = 10_000;

/**
 * How often a runner beats and renews its leases: every `HEARTBEAT_MS`, or every third of a
 * shorter lease, so a live worker's lease never runs out between two renewals.
 */
export function heartbeatInterval(leaseMs: number): number {
  return Math.min(HEARTBEAT_MS, Math.floor(leaseMs / 3));
}


/** Finished rows are kept this long (for inspection), then pruned. */
const KEEP_FINISHED_MS = 24 * 3600_000;

/** Backoff doubles per attempt up to this. */
const MAX_BACKOFF_MS = 3600_000;

/** The delay before attempt `attempt + 1`: `backoffMs`, doubled per attempt already made. */
export function backoffDelay(backoffMs: number, attempt: number): number {
  return Math.min(MAX_BACKOFF_MS, backoffMs * 2 ** Math.max(0, attempt - 1));
}

/**
 * One worker over the queue table: claims due rows of the kinds it has handlers for, runs them
 * (at most `concurrency` at once), records each outcome, keeps a heartbeat row. Woken at once by
 * `wake()` (after a commit or a publication in this process that queued rows, when a handler
 * ends) and by NOTIFY from other processes on PostgreSQL; otherwise it looks every `pollMs`. Its
 * statements are left out of the request statement counts (`uncounted`).
 */
export class QueueRunner {
  readonly id = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly handlers = new Map<string, QueueHandler>();
  private readonly giveUpHooks = new Map<string, GiveUpHook>();
  private readonly active = new Map<number, { item: ClaimedItem; done: Promise<void> }>();
  private readonly abort = new AbortController();
  private running = false;
  private woken = false;
  private wakeUp: (() => void) | null = null;
  private loop: Promise<void> | null = null;
  private timers: NodeJS.Timeout[] = [];
  private unlisten: (() => Promise<void>) | null = null;
  private nextDue = Infinity;
  private readonly started = Date.now();
  private readonly backend: QueueBackend;

  constructor(private readonly services: Services, private readonly options: RunnerOptions) {
    checkLease(options.leaseMs);
    this.backend = usesPgBoss(services) ? pgBossBackend(services) : tableBackend(services);
  }

  /** Registers the handler of `kind` (one per kind) and its give-up hook, if any. */
  handle(kind: string, handler: QueueHandler, hooks: KindHandlers = {}): void {
    if (this.handlers.has(kind)) throw new Error(`queue kind "${kind}" already has a handler`);
    this.handlers.set(kind, handler);
    if (hooks.onGiveUp) this.giveUpHooks.set(kind, hooks.onGiveUp);
  }

  /** Starts claiming; returns once the runner is registered as a live worker. */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    const { dialect } = this.services;
    await uncounted(async () => this.backend.prepare?.([...this.handlers.keys()]));
    await housekeeping(() => beat(dialect, { id: this.id, hostname: os.hostname(), pid: process.pid, started: this.started }));
    this.unlisten = await dialect.listen(QUEUE_CHANNEL, () => this.wake());
    this.timers.push(setInterval(() => void this.heartbeat(), heartbeatInterval(this.options.leaseMs)).unref());
    this.loop = this.run();
  }

  /** Looks for work now (cheap to call often: wakes coalesce). */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  /**
   * Stops claiming, lets running handlers finish for up to `graceMs` (default 0), then aborts the
   * rest (their rows are released, the attempt not counted), removes the heartbeat row.
   */
  async stop(graceMs = 0): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.wake();
    await this.loop;
    const running = () => Promise.allSettled([...this.active.values()].map((a) => a.done));
    if (this.active.size > 0 && graceMs > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([running(), new Promise<void>((resolve) => { timer = setTimeout(resolve, graceMs); })]);
      clearTimeout(timer);
    }
    for (const timer of this.timers) clearInterval(timer);
    this.abort.abort();
    await running();
    await this.unlisten?.();
    await housekeeping(() => removeWorkers(this.services.dialect, this.id, Date.now() - 30 * HEARTBEAT_MS)).catch(() => undefined);
  }

  private async run(): Promise<void> {
    while (this.running) {
      this.woken = false;
      let claimed: ClaimedItem[] = [];
      try {
        const free = this.options.concurrency - this.active.size;
        claimed = await uncounted(() => this.backend.claim(this.id, [...this.handlers.keys()], free, Date.now() + this.options.leaseMs));
      } catch (err) {
        if (this.running) console.error(`queue: claiming failed: ${(err as Error).message}`);
      }
      // Each claim and each row's run apart (not the whole loop, which never ends): the storage that marks them is enabled only while one runs.
      for (const item of claimed) this.active.set(item.id, { item, done: uncounted(() => this.execute(item)).finally(() => { this.active.delete(item.id); this.wake(); }) });
      if (!this.running) break;
      if (this.woken) continue;
      await this.sleep();
    }
  }

  private sleep(): Promise<void> {
    const wait = Math.max(0, Math.min(this.options.pollMs, this.nextDue - Date.now()));
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, wait);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = () => {
        this.wakeUp = null;
        done();
      };
    }).then(() => {
      if (this.nextDue <= Date.now()) this.nextDue = Infinity;
    });
  }

  private async execute(item: ClaimedItem): Promise<void> {
    const handler = this.handlers.get(item.kind)!;
    if (item.attempts > item.maxAttempts) {
      const reason = `Attempts spent: the worker running attempt ${item.maxAttempts} of ${item.maxAttempts} stopped before it ended.`;
      const gaveUp = await this.giveUp(item, reason).catch((failure) => {
        logFailure(failure);
        return false;
      });
      queueEvents(this.services).emit('attempt', { id: item.id, kind: item.kind, attempt: item.attempts, state: gaveUp ? 'failed' : 'running' } satisfies AttemptOutcome);
      return;
    }
    const ctx: HandlerContext = { services: this.services, id: item.id, kind: item.kind, attempt: item.attempts, maxAttempts: item.maxAttempts, signal: this.abort.signal };
    let state: AttemptOutcome['state'];
    try {
      const result = await handler(item.payload, ctx);
      await this.backend.finish(this.id, item, 'done', { result });
      state = 'done';
    } catch (err) {
      state = await this.failed(item, err).catch((failure) => {
        logFailure(failure);
        return 'queued' as const;
      });
    }
    queueEvents(this.services).emit('attempt', { id: item.id, kind: item.kind, attempt: item.attempts, state } satisfies AttemptOutcome);
  }

  /** Records a failed attempt; returns the row's state after it. */
  private async failed(item: ClaimedItem, err: unknown): Promise<AttemptOutcome['state']> {
    const message = err instanceof Error ? err.message : String(err);
    if (this.abort.signal.aborted) {
      await this.backend.release(this.id, item, message);
      return 'queued';
    }
    if (err instanceof PermanentError || item.attempts >= item.maxAttempts) return (await this.giveUp(item, message)) ? 'failed' : 'running';
    const runAfter = Date.now() + backoffDelay(item.backoffMs, item.attempts);
    this.nextDue = Math.min(this.nextDue, runAfter);
    await this.backend.retry(this.id, item, runAfter, message);
    return 'queued';
  }

  /**
   * Ends a row failed for good: its kind's give-up hook first, then the row. Returns false when
   * the hook threw: the row stays leased and is given up again once its lease runs out.
   */
  private async giveUp(item: ClaimedItem, reason: string): Promise<boolean> {
    const hook = this.giveUpHooks.get(item.kind);
    if (hook) {
      const ctx: GiveUpContext = { services: this.services, id: item.id, kind: item.kind, attempts: item.attempts, maxAttempts: item.maxAttempts, reason };
      try {
        await hook(item.payload, ctx);
      } catch (err) {
        logFailure(new Error(`giving up row ${item.id} (${item.kind}): ${(err as Error).message}`));
        return false;
      }
    }
    await this.backend.finish(this.id, item, 'failed', { error: reason });
    return true;
  }

  private async heartbeat(): Promise<void> {
    const { dialect } = this.services;
    await housekeeping(async () => {
      await beat(dialect, { id: this.id, hostname: os.hostname(), pid: process.pid, started: this.started });
      await this.backend.extend(this.id, [...this.active.values()].map((a) => a.item), Date.now() + this.options.leaseMs);
      await removeWorkers(dialect, null, Date.now() - 30 * HEARTBEAT_MS);
      await this.backend.prune(Date.now() - KEEP_FINISHED_MS);
    }).catch(logFailure);
  }
}

function logFailure(err: unknown): void {
  console.error(`queue: ${(err as Error).message}`);
}
