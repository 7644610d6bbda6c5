import { claimItems, extendLeases, finishItem, pruneItems, rescheduleItem } from './store.js';
import type { ClaimedItem } from './store.js';
import type { Services } from '../ops/services.js';

/**
 * Where a runner's rows live: the database engine's own tables (store.ts, the embedded default)
 * or pg-boss (pg-boss.ts, `QUEUE_ENGINE=pg-boss`). The runner (runner.ts) is the same over both:
 * claiming, concurrency, heartbeats, graceful stop.
 */
export interface QueueBackend {
  /** Readies the engine for `kinds` before the runner claims (pg-boss: its queues exist before any transaction enqueues). */
  prepare?(kinds: string[]): Promise<void>;
  /** Leases up to `limit` due rows of `kinds` to `worker`; a row waits while an earlier row of its group is unfinished. */
  claim(worker: string, kinds: string[], limit: number, leaseUntil: number): Promise<ClaimedItem[]>;
  /** The row ran to its end. */
  finish(worker: string, item: ClaimedItem, state: 'done' | 'failed', outcome: { result?: unknown; error?: string }): Promise<void>;
  /** A failed attempt with attempts left: the row runs again at `runAfter`. */
  retry(worker: string, item: ClaimedItem, runAfter: number, error: string): Promise<void>;
  /** The worker stops before the row ran: it is queued again at once, the attempt not counted. */
  release(worker: string, item: ClaimedItem, error: string | null): Promise<void>;
  /** Extends the leases of the rows `worker` is running. */
  extend(worker: string, items: ClaimedItem[], leaseUntil: number): Promise<void>;
  /** Finished rows older than `before` go (pg-boss archives on its own). */
  prune(before: number): Promise<void>;
}

/** The database engine: `inventory_queue` (store.ts). */
export function tableBackend(services: Services): QueueBackend {
  const { dialect } = services;
  return {
    claim: (worker, kinds, limit, leaseUntil) => claimItems(dialect, worker, kinds, limit, leaseUntil),
    finish: (worker, item, state, outcome) => finishItem(dialect, worker, item.id, state, outcome),
    retry: (worker, item, runAfter, error) => rescheduleItem(dialect, worker, item.id, runAfter, error),
    release: (worker, item, error) => rescheduleItem(dialect, worker, item.id, Date.now(), error, true),
    extend: (worker, items, leaseUntil) => extendLeases(dialect, worker, items.map((i) => i.id), leaseUntil),
    prune: (before) => pruneItems(dialect, before),
  };
}
