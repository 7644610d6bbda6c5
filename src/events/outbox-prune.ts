import { sql } from 'kysely';
import { nextTurn } from '../core/next-turn.js';
import type { Services } from '../ops/services.js';

/**
 * Rows one prune statement deletes at the most (tests lower it). A burst of writes (the
 * bench's seed: 206 000 change records) left that many rows for one DELETE an hour later: 686 ms
 * during which the embedded database's one connection, and so the event loop, served nothing
 * else. In batches of 2 000 the same prune took 2.2 s with the longest pause 219 ms (the others
 * 50-66 ms); batches of 500 cost more per row (18.7 s, pauses up to 544 ms), so not smaller.
 */
export const pruneTuning = { batch: 2000 };

/**
 * Deletes outbox rows published before `before` (their deliveries were queued when they were
 * published; only the change stream's resumption still reads them). The newest published row
 * stays, so publication numbers keep growing after a prune. Oldest first, `pruneTuning.batch`
 * rows a statement, other work let in between. Returns how many went.
 */
export async function pruneOutbox(services: Services, before: number): Promise<number> {
  let total = 0;
  for (;;) {
    const limit = pruneTuning.batch;
    const result = await sql`DELETE FROM "inventory_outbox" WHERE "id" IN (SELECT o."id" FROM "inventory_outbox" o
      WHERE o."seq" IS NOT NULL AND o."created" < ${before} AND o."seq" < (SELECT MAX(m."seq") FROM "inventory_outbox" m)
      ORDER BY o."id" LIMIT ${limit})`.execute(services.dialect.db);
    const deleted = Number(result.numAffectedRows ?? 0);
    total += deleted;
    if (deleted < limit) return total;
    await nextTurn();
  }
}

const listeners = new WeakMap<Services, Set<(pruned: number) => void>>();

/** In-process listeners told after each prune of the outbox (tests, logs). */
export function prunedListeners(services: Services): Set<(pruned: number) => void> {
  let set = listeners.get(services);
  if (!set) listeners.set(services, (set = new Set()));
  return set;
}
