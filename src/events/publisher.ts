import { AsyncResource } from 'node:async_hooks';
import { sql } from 'kysely';
import { housekeeping, uncounted } from '../db/dialects/dialect.js';
import { OUTBOX_CHANNEL } from '../ops/write/outbox.js';
import { pruneOutbox, prunedListeners } from './outbox-prune.js';
import type { Exec } from '../db/store.js';
import type { Services } from '../ops/services.js';

/** Announced when outbox rows are published (change stream readers in every process listen). */
export const PUBLISHED_CHANNEL = 'inventory_published';

/** Rows published per transaction. */
const BATCH = 500;

/** How soon a publisher tries again when another process holds the publishing lock. */
const LOCK_RETRY_MS = 100;

/** Published rows older than the retention (OUTBOX_RETENTION_MS) are pruned this often at most. */
const PRUNE_EVERY_MS = 60_000;

/** One committed change, as subscribers of the outbox get it. */
/** `objectType`: the changed object's model id (`app_label.model`, as change records store it). */
export type PublishedChange = { seq: number; changeId: string; objectType: string; objectId: string; action: string };

/**
 * Reacts to published changes inside the publishing transaction (`exec`), e.g. by enqueueing
 * deliveries: what it writes commits together with the publication, so each change is handed
 * on exactly once.
 */
export type OutboxSubscriber = (changes: PublishedChange[], exec: Exec) => Promise<void>;

/**
 * Publishes committed outbox rows, oldest first: gives each its `seq` (the change stream's event
 * id) and hands the batch to the subscribers, in one transaction under a lock (PostgreSQL:
 * `tryLockScope`; SQLite: one writer), so seqs grow in publication order across processes and a
 * later commit of the same object always gets a later seq. Runs where a queue runner runs
 * (embedded or `inventory worker`); woken after commits and by NOTIFY, else every `pollMs`.
 * When another process holds the lock it tries again shortly instead of waiting, so a holder that
 * is stuck (a paused process) delays publication but never this process's `stop()`.
 * Also prunes published rows past their retention.
 */
export class OutboxPublisher {
  private busy: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;
  private retry: NodeJS.Timeout | null = null;
  private unlisten: (() => Promise<void>) | null = null;
  private readonly scope = new AsyncResource('outbox-publisher');
  private lastPrune = 0;
  private pruning: Promise<void> | null = null;

  constructor(private readonly services: Services, private readonly subscribers: OutboxSubscriber[], private readonly pollMs: number) {}

  async start(): Promise<void> {
    this.unlisten = await this.services.dialect.listen(OUTBOX_CHANNEL, () => this.wake());
    this.timer = setInterval(() => {
      this.wake();
      this.pruneWhenDue();
    }, this.pollMs).unref();
    this.wake();
  }

  /** Publishes what is pending now (wakes coalesce; runs outside the caller's async context). */
  wake(): void {
    if (this.stopped) return;
    if (this.busy) {
      this.again = true;
      return;
    }
    this.busy = this.scope.runInAsyncScope(() => uncounted(() => this.drain())).catch((err) => {
      if (!this.stopped) console.error(`outbox: publishing failed: ${(err as Error).message}`);
    }).finally(() => {
      this.busy = null;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.retry) clearTimeout(this.retry);
    await this.busy;
    await this.pruning;
    await this.unlisten?.();
  }

  /** Prunes published rows older than the retention, at most every PRUNE_EVERY_MS (or the retention, if shorter). */
  private pruneWhenDue(): void {
    const retention = this.services.config.queue.outboxRetentionMs;
    const now = Date.now();
    if (this.stopped || this.pruning || now - this.lastPrune < Math.min(PRUNE_EVERY_MS, retention)) return;
    this.lastPrune = now;
    this.pruning = this.scope.runInAsyncScope(() => housekeeping(() => pruneOutbox(this.services, now - retention))).then((pruned) => {
      for (const listener of prunedListeners(this.services)) listener(pruned);
    }, (err) => {
      if (!this.stopped) console.error(`outbox: pruning failed: ${(err as Error).message}`);
    }).finally(() => {
      this.pruning = null;
    });
  }

  private async drain(): Promise<void> {
    while (!this.stopped) {
      const published = await this.publishBatch();
      if (published === null) return this.retrySoon();
      if (published < BATCH) return;
    }
  }

  private retrySoon(): void {
    if (this.stopped || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      this.wake();
    }, LOCK_RETRY_MS).unref();
  }

  /** Publishes up to BATCH pending rows; returns how many, or null when another process holds the lock. */
  private async publishBatch(): Promise<number | null> {
    const { dialect, registry } = this.services;
    const changes = registry.get('extras.objectchange');
    const typeColumn = changes.fieldMap.get('changed_object_type')!.column as string;
    const idColumn = changes.fieldMap.get('changed_object_id')!.column as string;
    return dialect.db.transaction().execute(async (trx) => {
      if (!(await dialect.tryLockScope(trx, 'outbox-publish'))) return null;
      const pending = await sql<{ id: number; change_id: string; type_id: string; object_id: string; action: string }>`
        SELECT o."id", o."change_id", c.${sql.ref(typeColumn)} AS "type_id", c.${sql.ref(idColumn)} AS "object_id", c."action"
        FROM "inventory_outbox" o JOIN ${sql.table(changes.table)} c ON c."id" = o."change_id"
        WHERE o."seq" IS NULL ORDER BY o."id" LIMIT ${BATCH}`.execute(trx);
      if (pending.rows.length === 0) return 0;
      const top = await sql<{ m: number | null }>`SELECT MAX("seq") AS "m" FROM "inventory_outbox"`.execute(trx);
      const firstId = Number(pending.rows[0].id);
      // seq = id + offset: grows with id inside the batch, and starts above every earlier seq.
      const offset = Number(top.rows[0]?.m ?? 0) + 1 - firstId;
      const ids = pending.rows.map((r) => Number(r.id));
      await sql`UPDATE "inventory_outbox" SET "seq" = "id" + ${offset} WHERE "id" IN (${dialect.valueList(ids, 'bigint')})`.execute(trx);
      const published = pending.rows.map((r): PublishedChange => ({
        seq: Number(r.id) + offset, changeId: String(r.change_id), objectType: String(r.type_id), objectId: String(r.object_id), action: r.action,
      }));
      for (const subscriber of this.subscribers) await subscriber(published, trx);
      await dialect.notify(trx, PUBLISHED_CHANNEL);
      return pending.rows.length;
    }).then((n) => {
      if (n) for (const listener of publishedListeners(this.services)) listener();
      return n;
    });
  }
}

const listeners = new WeakMap<Services, Set<() => void>>();

/** In-process listeners told after each publication (the change stream of this process). */
export function publishedListeners(services: Services): Set<() => void> {
  let set = listeners.get(services);
  if (!set) listeners.set(services, (set = new Set()));
  return set;
}
