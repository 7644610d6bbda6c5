import { sql } from 'kysely';
import type { Services } from '../ops/services.js';

/**
 * Deletes outbox rows published before `before` (their deliveries were queued when they were
 * published; only the change stream's resumption still reads them). The newest published row
 * stays, so publication numbers keep growing after a prune. Returns how many went.
 */
export async function pruneOutbox(services: Services, before: number): Promise<number> {
  const result = await sql`DELETE FROM "inventory_outbox" WHERE "seq" IS NOT NULL AND "created" < ${before}
    AND "seq" < (SELECT MAX(m."seq") FROM "inventory_outbox" m)`.execute(services.dialect.db);
  return Number(result.numAffectedRows ?? 0);
}

const listeners = new WeakMap<Services, Set<(pruned: number) => void>>();

/** In-process listeners told after each prune of the outbox (tests, logs). */
export function prunedListeners(services: Services): Set<(pruned: number) => void> {
  let set = listeners.get(services);
  if (!set) listeners.set(services, (set = new Set()));
  return set;
}
