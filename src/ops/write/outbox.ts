import { sql } from 'kysely';
import type { Exec } from '../../db/store.js';
import type { Services } from '../services.js';

/** The channel a committed outbox row is announced on (events/publisher.ts listens). */
export const OUTBOX_CHANNEL = 'inventory_outbox';

/**
 * Records the events of a write: one outbox row per change record, in the write's transaction
 * (`exec`), in the records' order, one statement whatever their number. Announced to other
 * processes when the transaction commits (nothing for a rollback); this process is woken by
 * `writeTransaction` after the commit.
 */
export async function recordEvents(services: Services, exec: Exec, changeIds: string[]): Promise<void> {
  if (changeIds.length === 0) return;
  const { dialect } = services;
  const ids = dialect.valueList(changeIds, 'uuid');
  await sql`INSERT INTO "inventory_outbox" ("change_id", "created") SELECT *, ${Date.now()} FROM (${ids}) AS ids`.execute(exec);
  await dialect.notify(exec, OUTBOX_CHANNEL);
}
