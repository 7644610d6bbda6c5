import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { connect } from '../../src/db/connect.js';
import { analyzeStaleTables } from '../../src/db/dialects/postgres-statistics.js';
import { DB_URL, makeApp } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';

const onPostgres = DB_URL.startsWith('postgres');

/**
 * The service keeps PostgreSQL's planner statistics itself (db/dialects/postgres-statistics.ts):
 * autovacuum may be off, as on this project's CI machines.
 */
describe('PostgreSQL planner statistics kept by the service', { skip: onPostgres ? false : 'PostgreSQL only' }, () => {
  let t: TestApp;
  let client: pg.Client;
  let pool: pg.Pool;
  const lastAnalyze = async (table: string) => (await client.query('SELECT last_analyze, last_autoanalyze FROM pg_stat_user_tables WHERE relname = $1', [table])).rows[0];

  /** A table of `rows` rows written by the test's connection, its counts reported at once. */
  async function filled(table: string, rows: number): Promise<void> {
    await client.query(`CREATE TABLE "${table}" (id integer PRIMARY KEY, name text)`);
    await client.query(`INSERT INTO "${table}" SELECT i, 'row ' || i FROM generate_series(1, ${rows}) AS i`);
    // Counts reach pg_stat_user_tables when a backend flushes them (up to 10 s later unless forced; PostgreSQL 15+).
    await client.query('SELECT pg_stat_force_next_flush()').catch(() => undefined);
    await client.query('SELECT 1');
    for (let waited = 0; waited < 15_000; waited += 100) {
      const { rows: seen } = await client.query('SELECT n_mod_since_analyze AS n FROM pg_stat_user_tables WHERE relname = $1', [table]);
      if (Number(seen[0]?.n ?? 0) >= rows) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.fail(`the server never reported ${table}'s inserts`);
  }

  before(async () => {
    t = await makeApp();
    const url = t.app.services.dialect.source!.url;
    client = new pg.Client({ connectionString: url });
    await client.connect();
    pool = new pg.Pool({ connectionString: url, max: 2 });
  });
  after(async () => {
    await client.end();
    await pool.end();
    await t.close();
  });

  it('analyzes a table changed by more than 1 000 rows and 10% since its last ANALYZE, and only then', async () => {
    await filled('stats_probe_big', 3000);
    await filled('stats_probe_small', 500);
    const analyzed = await analyzeStaleTables(pool);
    assert.ok(analyzed.includes('stats_probe_big'), `analyzed: ${analyzed.join(', ')}`);
    assert.ok(!analyzed.includes('stats_probe_small'));
    assert.ok((await lastAnalyze('stats_probe_big')).last_analyze);
    assert.equal((await lastAnalyze('stats_probe_small')).last_analyze, null);
    const estimate = await client.query("SELECT reltuples FROM pg_class WHERE relname = 'stats_probe_big'");
    assert.equal(Number(estimate.rows[0].reltuples), 3000);
    assert.deepEqual(await analyzeStaleTables(pool), []);
  });

  it('skips a round while another connection holds the round', async () => {
    await filled('stats_probe_locked', 2000);
    await client.query("SELECT pg_advisory_lock(hashtextextended('netsot:analyze', 0))");
    try {
      assert.deepEqual(await analyzeStaleTables(pool), []);
    } finally {
      await client.query("SELECT pg_advisory_unlock(hashtextextended('netsot:analyze', 0))");
    }
    assert.ok((await analyzeStaleTables(pool)).includes('stats_probe_locked'));
  });

  it('runs on its own in every open dialect, and stops with it', async () => {
    await filled('stats_probe_timer', 2000);
    const dialect = connect(t.app.services.dialect.source!.url, { statisticsEveryMs: 50 });
    try {
      for (let waited = 0; waited < 10_000 && !(await lastAnalyze('stats_probe_timer')).last_analyze; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.ok((await lastAnalyze('stats_probe_timer')).last_analyze, 'the dialect never analyzed the table');
    } finally {
      await dialect.close();
    }
  });
});
