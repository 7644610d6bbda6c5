import { sql } from 'kysely';
import type { Exec } from '../db/store.js';
import type { Dialect } from '../db/dialects/dialect.js';
import { noteQueued } from './queued-flag.js';

/** The channel a new queue row is announced on (runners listen on it). */
export const QUEUE_CHANNEL = 'inventory_queue';

/** A claimed row, as its handler gets it. */
export type ClaimedItem = { id: number; kind: string; payload: unknown; attempts: number; maxAttempts: number; backoffMs: number };

export type NewItem = { kind: string; payload: unknown; groupKey: string | null; maxAttempts: number; backoffMs: number; runAfter: number };

/** Inserts rows in `exec` (a write's transaction or the root handle); returns their ids in order. */
export async function insertItems(dialect: Dialect, exec: Exec, items: NewItem[]): Promise<number[]> {
  if (items.length === 0) return [];
  const now = Date.now();
  const rows = items.map((item) => ({
    kind: item.kind, payload: JSON.stringify(item.payload ?? null), group_key: item.groupKey, state: 'queued', attempts: 0,
    max_attempts: item.maxAttempts, backoff_ms: item.backoffMs, run_after: item.runAfter, created: now,
  }));
  const ids: number[] = [];
  for (let start = 0; start < rows.length; start += 500) {
    const inserted = await exec.insertInto('inventory_queue').values(rows.slice(start, start + 500)).returning('id').execute();
    for (const row of inserted) ids.push(Number(row.id));
  }
  noteQueued(dialect);
  await dialect.notify(exec, QUEUE_CHANNEL);
  return ids;
}

/**
 * Leases up to `limit` due rows to `worker` until `leaseUntil`, oldest first: queued rows whose
 * time has come, and running rows whose lease ran out (their worker died). A row waits while an
 * earlier row of its group is unfinished. One statement; on PostgreSQL the candidates are locked
 * with SKIP LOCKED, so concurrent workers never take the same row (SQLite has one writer).
 */
export async function claimItems(dialect: Dialect, worker: string, kinds: string[], limit: number, leaseUntil: number): Promise<ClaimedItem[]> {
  if (kinds.length === 0 || limit <= 0) return [];
  const now = Date.now();
  const skipLocked = dialect.name === 'postgres' ? sql`FOR UPDATE SKIP LOCKED` : sql``;
  const result = await sql<{ id: number; kind: string; payload: string; attempts: number; max_attempts: number; backoff_ms: number }>`
    UPDATE "inventory_queue" SET "state" = 'running', "attempts" = "attempts" + 1, "locked_by" = ${worker}, "locked_until" = ${leaseUntil}
    WHERE "id" IN (
      SELECT q."id" FROM "inventory_queue" q
      WHERE ((q."state" = 'queued' AND q."run_after" <= ${now}) OR (q."state" = 'running' AND q."locked_until" < ${now}))
        AND q."kind" IN (${sql.join(kinds)})
        AND (q."group_key" IS NULL OR NOT EXISTS (
          SELECT 1 FROM "inventory_queue" e WHERE e."group_key" = q."group_key" AND e."id" < q."id" AND e."state" IN ('queued', 'running')))
      ORDER BY q."id" LIMIT ${limit} ${skipLocked})
    RETURNING "id", "kind", "payload", "attempts", "max_attempts", "backoff_ms"`.execute(dialect.db);
  return result.rows.map((r) => ({
    id: Number(r.id), kind: r.kind, payload: JSON.parse(r.payload), attempts: Number(r.attempts), maxAttempts: Number(r.max_attempts), backoffMs: Number(r.backoff_ms),
  })).sort((a, b) => a.id - b.id);
}

/** The row ran to its end (`done` or `failed`), unless another worker took it over meanwhile. */
export async function finishItem(dialect: Dialect, worker: string, id: number, state: 'done' | 'failed', outcome: { result?: unknown; error?: string }): Promise<void> {
  await dialect.db.updateTable('inventory_queue')
    .set({ state, finished: Date.now(), locked_by: null, locked_until: null, result: outcome.result === undefined ? null : JSON.stringify(outcome.result), last_error: outcome.error ?? null })
    .where('id', '=', id).where('locked_by', '=', worker).execute();
}

/** The attempt failed: the row waits until `runAfter`; with `release`, the attempt is not counted (the worker stopped). */
export async function rescheduleItem(dialect: Dialect, worker: string, id: number, runAfter: number, error: string | null, release = false): Promise<void> {
  await dialect.db.updateTable('inventory_queue')
    .set((eb) => ({ state: 'queued', run_after: runAfter, locked_by: null, locked_until: null, last_error: error, ...(release ? { attempts: eb('attempts', '-', 1) } : {}) }))
    .where('id', '=', id).where('locked_by', '=', worker).execute();
}

/** Extends the leases of the rows `worker` is running. */
export async function extendLeases(dialect: Dialect, worker: string, ids: number[], leaseUntil: number): Promise<void> {
  if (ids.length === 0) return;
  await dialect.db.updateTable('inventory_queue').set({ locked_until: leaseUntil }).where('locked_by', '=', worker).where('id', 'in', ids).execute();
}

/** Finished rows older than `before` go. */
export async function pruneItems(dialect: Dialect, before: number): Promise<void> {
  await dialect.db.deleteFrom('inventory_queue').where('state', 'in', ['done', 'failed']).where('finished', '<', before).execute();
}

/** Records `worker` alive now (inserting its row the first time). */
export async function beat(dialect: Dialect, worker: { id: string; hostname: string; pid: number; started: number }): Promise<void> {
  const now = Date.now();
  const updated = await dialect.db.updateTable('inventory_workers').set({ heartbeat: now }).where('id', '=', worker.id).executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) await dialect.db.insertInto('inventory_workers').values({ ...worker, heartbeat: now }).execute();
}

/** Removes a stopped worker's row, and rows of workers silent since `staleBefore`. */
export async function removeWorkers(dialect: Dialect, id: string | null, staleBefore: number): Promise<void> {
  await dialect.db.deleteFrom('inventory_workers').where((eb) => eb.or([eb('id', '=', id ?? ''), eb('heartbeat', '<', staleBefore)])).execute();
}

/** Workers whose heartbeat is newer than `since`. */
export async function countLiveWorkers(exec: Exec, since: number): Promise<number> {
  const row = await exec.selectFrom('inventory_workers').select((eb) => eb.fn.countAll<number>().as('n')).where('heartbeat', '>=', since).executeTakeFirst();
  return Number(row?.n ?? 0);
}
