import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { DB_URL, makeApp } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';

const onPostgres = DB_URL.startsWith('postgres');

const pidOf = async (exec: Parameters<ReturnType<typeof sql>['execute']>[0]) => (await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(exec)).rows[0].pid;

describe('PostgreSQL statements of one turn share a connection (issue 22)', { skip: onPostgres ? false : 'runs with DATABASE_URL=postgres://...' }, () => {
  let t: TestApp;
  before(async () => {
    t = await makeApp();
  });
  after(() => t.close());

  it('should run statements started together outside a transaction on one connection', async () => {
    const db = t.app.services.dialect.db;
    const pids = await Promise.all([pidOf(db), pidOf(db), pidOf(db)]);
    assert.equal(new Set(pids).size, 1);
  });

  it('should not queue a statement of another callback behind a slow one', async () => {
    const db = t.app.services.dialect.db;
    await pidOf(db); // an idle connection in the pool
    const done: string[] = [];
    // Another request's statement starts in a callback of its own (an HTTP request is one), here
    // in the same turn of the event loop as the slow one.
    const quick = new Promise((resolve) => setImmediate(resolve)).then(() => pidOf(db)).then(() => done.push('quick'));
    const slow = sql`SELECT pg_sleep(2)`.execute(db).then(() => done.push('slow'));
    await Promise.all([slow, quick]);
    assert.deepEqual(done, ['quick', 'slow']);
  });

  it('should fail only the failing statement of a batch', async () => {
    const db = t.app.services.dialect.db;
    const [failed, ok, after] = await Promise.allSettled([
      sql`SELECT 1 / 0 AS x`.execute(db),
      sql<{ x: number }>`SELECT 2 AS x`.execute(db),
      sql<{ x: number }>`SELECT 3 AS x`.execute(db),
    ]);
    assert.equal(failed.status, 'rejected');
    assert.deepEqual(ok.status === 'fulfilled' && ok.value.rows, [{ x: 2 }]);
    assert.deepEqual(after.status === 'fulfilled' && after.value.rows, [{ x: 3 }]);
  });

  it('should give a transaction a connection of its own, its statements in order', async () => {
    const db = t.app.services.dialect.db;
    const [inside, outside] = await Promise.all([
      db.transaction().execute(async (trx) => {
        await sql`CREATE TEMP TABLE shared_reads_probe (v int) ON COMMIT DROP`.execute(trx);
        await sql`INSERT INTO shared_reads_probe VALUES (1), (2)`.execute(trx);
        const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM shared_reads_probe`.execute(trx);
        assert.equal(rows[0].n, 2);
        return pidOf(trx);
      }),
      pidOf(db),
    ]);
    assert.notEqual(inside, outside);
  });

  it('should answer a list page and its count as before', async () => {
    for (const name of ['Shared A', 'Shared B', 'Shared C']) {
      assert.equal((await t.call('POST', '/api/extras/tags/', { name, content_types: ['dcim.location'] })).status, 201);
    }
    const res = await t.call('GET', '/api/extras/tags/?limit=2&name__isw=Shared');
    assert.equal(res.status, 200);
    assert.equal(res.body.count, 3);
    assert.deepEqual(res.body.results.map((r: { name: string }) => r.name), ['Shared A', 'Shared B']);
  });
});
