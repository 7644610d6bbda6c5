import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { DB_URL, makeApp } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';

const onPostgres = DB_URL.startsWith('postgres');

describe('PostgreSQL session settings', { skip: onPostgres ? false : 'runs with DATABASE_URL=postgres://...' }, () => {
  let t: TestApp;
  before(async () => {
    t = await makeApp();
  });
  after(() => t.close());

  it('should run without JIT compilation (a recursive query estimate made it compile for 200 ms)', async () => {
    const rows = await sql<{ jit: string }>`SHOW jit`.execute(t.app.services.dialect.db);
    assert.equal(rows.rows[0].jit, 'off');
  });
});
