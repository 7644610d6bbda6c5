import { HEARTBEAT_MS } from './runner.js';
import { countLiveWorkers, insertItems } from './store.js';
import { closePgBoss, insertJobs, pgBossDepth, pgBossItem, startPgBoss, usesPgBoss } from './pg-boss.js';
import type { Exec } from '../db/store.js';
import type { Services } from '../ops/services.js';

export { declareQueueKind } from './kinds.js';
export { PermanentError, QueueRunner, backoffDelay, heartbeatInterval, queueEvents } from './runner.js';
export type { AttemptOutcome, GiveUpContext, GiveUpHook, HandlerContext, KindHandlers, QueueHandler, RunnerOptions } from './runner.js';

export type EnqueueOptions = {
  /**
   * The transaction to enqueue in (the row exists exactly when it commits); without it, the root
   * handle. Runners in this process wake when that `writeTransaction` commits, or at once without
   * `exec`; other processes by NOTIFY on PostgreSQL.
   */
  exec?: Exec;
  /** Attempts in all (default 5). */
  maxAttempts?: number;
  /** Delay before the second attempt, doubled for each later one (default 5000 ms). */
  backoffMs?: number;
  /** Run no sooner than this many milliseconds from now (default 0). */
  delayMs?: number;
  /** Rows with the same key run one at a time, in the order they were enqueued. */
  groupKey?: string;
};

export const DEFAULT_MAX_ATTEMPTS = 5;
export const DEFAULT_BACKOFF_MS = 5000;

/** Queues one run of the handler of `kind` with `payload` (JSON); returns the row's id. */
export async function enqueue(services: Services, kind: string, payload: unknown, options: EnqueueOptions = {}): Promise<number> {
  const [id] = await enqueueMany(services, [{ kind, payload, groupKey: options.groupKey }], options);
  return id;
}

/** Queues several runs in one statement per 500 rows; ids in order. */
export async function enqueueMany(services: Services, items: { kind: string; payload: unknown; groupKey?: string }[], options: Omit<EnqueueOptions, 'groupKey'> = {}): Promise<number[]> {
  const runAfter = Date.now() + (options.delayMs ?? 0);
  const rows = items.map((item) => ({
    kind: item.kind, payload: item.payload, groupKey: item.groupKey ?? null, runAfter,
    maxAttempts: Math.max(1, options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS), backoffMs: Math.max(0, options.backoffMs ?? DEFAULT_BACKOFF_MS),
  }));
  const exec = options.exec ?? services.dialect.db;
  const ids = usesPgBoss(services) ? await insertJobs(services, exec, rows) : await insertItems(services.dialect, exec, rows);
  if (!options.exec) for (const listener of services.committed) listener();
  return ids;
}

/** Queue rows as an administrator sees them (tests, status). */
export async function queueItem(services: Services, id: number): Promise<{ state: string; attempts: number; last_error: string | null; result: unknown } | undefined> {
  if (usesPgBoss(services)) return pgBossItem(services, id);
  const row = await services.dialect.db.selectFrom('inventory_queue').select(['state', 'attempts', 'last_error', 'result']).where('id', '=', id).executeTakeFirst();
  return row && { state: row.state, attempts: Number(row.attempts), last_error: row.last_error, result: row.result === null ? null : JSON.parse(row.result) };
}

/** Runners (embedded and `inventory worker` processes) with a recent heartbeat. */
export function liveWorkers(services: Services, exec: Exec = services.dialect.db): Promise<number> {
  return countLiveWorkers(exec, Date.now() - 3 * HEARTBEAT_MS);
}

/** Items waiting (`queued`, retries included) and being worked on (`running`): the queue depth metric. */
export async function queueDepth(services: Services): Promise<{ queued: number; running: number }> {
  if (usesPgBoss(services)) return pgBossDepth(services);
  const rows = await services.dialect.db.selectFrom('inventory_queue').select((eb) => ['state', eb.fn.countAll().as('n')]).where('state', 'in', ['queued', 'running']).groupBy('state').execute();
  const counts = new Map(rows.map((r) => [String(r.state), Number(r.n)]));
  return { queued: counts.get('queued') ?? 0, running: counts.get('running') ?? 0 };
}

/**
 * Readies the queue engine of this process before it serves (pg-boss: started, the declared
 * kinds' queues created), so enqueues inside transactions only insert through them.
 */
export async function startQueueEngine(services: Services): Promise<void> {
  if (usesPgBoss(services)) await startPgBoss(services);
}

/** Releases what the queue engine holds in this process (pg-boss's pool); after the runners stopped, before the database closes. */
export async function closeQueueEngine(services: Services): Promise<void> {
  if (usesPgBoss(services)) await closePgBoss(services);
}
