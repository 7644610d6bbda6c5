import type { Dialect } from '../dialects/dialect.js';

/**
 * The tables of events and the queue (not models of the registry: no API of their own).
 *
 * - `inventory_outbox`: one row per change record, written in the write's transaction
 *   (ops/write/outbox.ts). `seq` is given when the row is published (events/publisher.ts), in
 *   publication order: the change stream's event id and the order deliveries are made in.
 * - `inventory_queue`: work to run off the request path (queue/queue.ts): a kind, a JSON payload,
 *   its state, attempts and when it may run next; `locked_by`/`locked_until` lease a claimed row
 *   to one worker, so a crashed worker's rows are claimed again when the lease runs out; rows of
 *   one `group_key` run one at a time, in id order.
 * - `inventory_workers`: one row per live runner, its heartbeat (`/api/status/`).
 *
 * Times are milliseconds since the epoch (integers compare the same everywhere).
 */
export async function createQueueTables(dialect: Dialect): Promise<void> {
  const serial = dialect.name === 'postgres' ? 'bigserial PRIMARY KEY' : 'INTEGER PRIMARY KEY AUTOINCREMENT';
  const big = dialect.columnType('bigint');
  const uuid = dialect.columnType('uuid');
  await dialect.execScript([
    `CREATE TABLE IF NOT EXISTS "inventory_outbox" ("id" ${serial}, "change_id" ${uuid} NOT NULL, "seq" ${big}, "created" ${big} NOT NULL)`,
    'CREATE INDEX IF NOT EXISTS "inventory_outbox_pending" ON "inventory_outbox" ("id") WHERE "seq" IS NULL',
    'CREATE UNIQUE INDEX IF NOT EXISTS "inventory_outbox_seq" ON "inventory_outbox" ("seq")',
    `CREATE TABLE IF NOT EXISTS "inventory_queue" ("id" ${serial}, "kind" text NOT NULL, "payload" text NOT NULL, "group_key" text, "state" text NOT NULL,
      "attempts" integer NOT NULL DEFAULT 0, "max_attempts" integer NOT NULL, "backoff_ms" integer NOT NULL, "run_after" ${big} NOT NULL,
      "locked_by" text, "locked_until" ${big}, "last_error" text, "result" text, "created" ${big} NOT NULL, "finished" ${big})`,
    'CREATE INDEX IF NOT EXISTS "inventory_queue_due" ON "inventory_queue" ("run_after") WHERE "state" = \'queued\'',
    'CREATE INDEX IF NOT EXISTS "inventory_queue_group" ON "inventory_queue" ("group_key", "id") WHERE "state" IN (\'queued\', \'running\')',
    'CREATE INDEX IF NOT EXISTS "inventory_queue_leased" ON "inventory_queue" ("locked_until") WHERE "state" = \'running\'',
    `CREATE TABLE IF NOT EXISTS "inventory_workers" ("id" text PRIMARY KEY, "hostname" text NOT NULL, "pid" integer NOT NULL, "started" ${big} NOT NULL, "heartbeat" ${big} NOT NULL)`,
  ]);
}
