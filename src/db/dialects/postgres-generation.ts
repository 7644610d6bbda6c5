import { sql } from 'kysely';
import type pg from 'pg';

/**
 * The write generation of one PostgreSQL database (issue 22). The cluster's snapshot
 * (`pg_current_snapshot()`) moves whenever any database of the server starts or ends a
 * writing transaction (other databases moved it ~8 times a second), so memos kept by it rarely
 * lasted. Instead every write statement on a table of ours bumps a counter in the same
 * transaction (a statement-level trigger, whoever writes: this process, another one, psql), and
 * the generation is the counters' sum as the reading statement's snapshot sees it: it moves
 * exactly when a writing transaction of this database commits (its rows and its bump become
 * visible together), never for another database's, never for a rollback.
 *
 * The counter is split into SLOTS rows picked by backend pid, so concurrent writers rarely
 * update the same row (each holds its row's lock until it commits); a transaction bumps once
 * (a transaction-local setting remembers it; a rolled-back savepoint forgets both). The sum of
 * SLOTS small rows is read beside a statement a request makes anyway.
 *
 * A write transaction's own connection sees its uncommitted bump (GENERATION_SQL then adds the
 * transaction's id, so what it reads there is never a committed state's generation).
 */
const TABLE = 'netsot_generation';
const FUNCTION = 'netsot_bump_generation';
const TRIGGER = 'netsot_generation_bump';
const SLOTS = 64;

/**
 * The generation as an SQL expression (text), for a statement to read beside its rows. Read on
 * a connection whose transaction has bumped it, it also names that transaction: a rollback takes
 * the bump back, and the sum alone would then be the one the next writer's commit makes.
 */
export const GENERATION_SQL = sql<string>`((SELECT sum(g)::text FROM ${sql.table(TABLE)}) || CASE WHEN current_setting('netsot.generation_bumped', true) = '1' THEN ':' || txid_current() ELSE '' END)`;

const SETUP = [
  `CREATE TABLE IF NOT EXISTS "${TABLE}" ("slot" integer PRIMARY KEY, "g" bigint NOT NULL DEFAULT 0)`,
  `INSERT INTO "${TABLE}" ("slot") SELECT s FROM generate_series(0, ${SLOTS - 1}) AS s ON CONFLICT DO NOTHING`,
  `CREATE OR REPLACE FUNCTION "${FUNCTION}"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('netsot.generation_bumped', true) IS DISTINCT FROM '1' THEN
    UPDATE "${TABLE}" SET g = g + 1 WHERE slot = pg_backend_pid() % ${SLOTS};
    PERFORM set_config('netsot.generation_bumped', '1', true);
  END IF;
  RETURN NULL;
END $$`,
];

/**
 * Creates the counter and its function, and the trigger on each of `tables` that lacks it (every
 * start: tables a migration added get theirs). Tables are of the current schema.
 */
export async function trackWrites(pool: pg.Pool, tables: readonly string[]): Promise<void> {
  // Set up once per database: processes starting together would otherwise replace the function at once ("tuple concurrently updated").
  const ready = await pool.query(`SELECT to_regclass($1) IS NOT NULL AND to_regprocedure($2) IS NOT NULL AS ready`, [TABLE, `${FUNCTION}()`]);
  if (!ready.rows[0]?.ready) await pool.query(SETUP.join(';\n'));
  const { rows } = await pool.query<{ table: string }>(
    `SELECT c.relname AS "table" FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE t.tgname = $1 AND c.relnamespace = current_schema()::regnamespace`,
    [TRIGGER],
  );
  const done = new Set(rows.map((r) => r.table));
  const missing = tables.filter((table) => !done.has(table));
  if (missing.length === 0) return;
  const quoted = (table: string) => `"${table.replace(/"/g, '""')}"`;
  // A process starting beside this one may create the same trigger first: that is not an error (PostgreSQL 11+, no CREATE OR REPLACE TRIGGER needed).
  const create = (table: string) => `DO $$ BEGIN CREATE TRIGGER "${TRIGGER}" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${quoted(table)} FOR EACH STATEMENT EXECUTE FUNCTION "${FUNCTION}"(); EXCEPTION WHEN duplicate_object THEN NULL; END $$`;
  await pool.query(missing.map(create).join(';\n'));
}
