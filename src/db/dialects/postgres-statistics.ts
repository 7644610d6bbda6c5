import type pg from 'pg';

/**
 * Planner statistics kept by the service itself (issue 22). PostgreSQL plans from the row counts
 * and value spreads ANALYZE records; autovacuum normally refreshes them, but it may be switched
 * off (it is on this project's CI machines) and lags a minute behind a bulk load when on. A table
 * that grew from nothing to 50 000 rows without ANALYZE was still planned as 260 rows: the parent
 * lookup of each bulk prefix create then read every prefix of the namespace (70 ms at 50 000
 * prefixes, growing with the table) instead of seeking each network, and an xlarge seed's
 * prefixes went at 80 a second instead of 400.
 *
 * So every `every` ms one process of the database (an advisory lock, tried, never waited for)
 * analyzes the tables of its schema changed by more than MIN_CHANGES rows plus SHARE of their
 * size since their last ANALYZE, whoever analyzed them last (autovacuum resets the count too).
 */
const MIN_CHANGES = 1000;
const SHARE = 0.1;
/** Tables analyzed per round at most, the most changed first (each ANALYZE samples up to 30 000 rows). */
const PER_ROUND = 4;
const LOCK = 'netsot:analyze';

const STALE_TABLES = `SELECT relname FROM pg_stat_user_tables
  WHERE schemaname = current_schema() AND n_mod_since_analyze > $1::float8 + $2::float8 * GREATEST(n_live_tup, 0)
  ORDER BY n_mod_since_analyze DESC LIMIT ${PER_ROUND}`;

/** Analyzes this schema's stale tables unless another connection is doing so; returns the tables analyzed. */
export async function analyzeStaleTables(pool: pg.Pool): Promise<string[]> {
  const client = await pool.connect();
  try {
    const got = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked', [LOCK]);
    if (!got.rows[0]?.locked) return [];
    try {
      const { rows } = await client.query<{ relname: string }>(STALE_TABLES, [MIN_CHANGES, SHARE]);
      for (const { relname } of rows) {
        // In a transaction of its own so the pool's statement_timeout does not apply to it.
        await client.query(`BEGIN; SET LOCAL statement_timeout = 0; ANALYZE "${relname.replace(/"/g, '""')}"; COMMIT`);
      }
      return rows.map((r) => r.relname);
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [LOCK]);
    }
  } finally {
    client.release();
  }
}

/** Runs `analyzeStaleTables` every `everyMs` (never two at once); the returned function stops it and waits for a running round. */
export function keepStatistics(pool: pg.Pool, everyMs: number): () => Promise<void> {
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = analyzeStaleTables(pool)
      .catch((err: Error) => console.error(`database: keeping planner statistics failed: ${err.message}`))
      .finally(() => { running = null; });
  }, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
