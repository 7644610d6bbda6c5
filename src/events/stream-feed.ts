import { sql } from 'kysely';
import { PUBLISHED_CHANNEL, publishedListeners } from './publisher.js';
import type { Services } from '../ops/services.js';

/** Published outbox rows after `cursor`, in seq order (at most `limit`). */
export async function publishedAfter(services: Services, cursor: number, limit: number): Promise<{ seq: number; changeId: string }[]> {
  const rows = await sql<{ seq: number; change_id: string }>`
    SELECT "seq", "change_id" FROM "inventory_outbox" WHERE "seq" > ${cursor} ORDER BY "seq" LIMIT ${limit}`.execute(services.dialect.db);
  return rows.rows.map((r) => ({ seq: Number(r.seq), changeId: String(r.change_id) }));
}

/** The latest seq published (0 when none). */
export async function latestSeq(services: Services): Promise<number> {
  const row = await sql<{ m: number | null }>`SELECT MAX("seq") AS "m" FROM "inventory_outbox"`.execute(services.dialect.db);
  return Number(row.rows[0]?.m ?? 0);
}

type Hub = { waiters: Set<() => void>; wakeAll: () => void; stop: (() => Promise<void>) | null; starting: Promise<void> | null };
const hubs = new WeakMap<Services, Hub>();

/**
 * Wakes this process's stream readers when changes are published: by this process's publisher
 * at once, and by any other process's through one LISTEN connection per process (PostgreSQL),
 * opened while someone reads.
 */
export async function onPublished(services: Services, waiter: () => void): Promise<() => void> {
  let hub = hubs.get(services);
  if (!hub) {
    const waiters = new Set<() => void>();
    hubs.set(services, (hub = { waiters, wakeAll: () => { for (const w of waiters) w(); }, stop: null, starting: null }));
  }
  const h = hub;
  h.waiters.add(waiter);
  if (h.waiters.size === 1) {
    publishedListeners(services).add(h.wakeAll);
    h.starting = services.dialect.listen(PUBLISHED_CHANNEL, h.wakeAll).then((stop) => { h.stop = stop; });
  }
  await h.starting;
  return () => {
    h.waiters.delete(waiter);
    if (h.waiters.size > 0) return;
    publishedListeners(services).delete(h.wakeAll);
    const stop = h.stop;
    h.stop = null;
    void stop?.();
  };
}
