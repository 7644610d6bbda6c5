import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
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

  it('should survive the server ending an idle pooled connection, and answer on a new one', { timeout: 30_000 }, async () => {
    const db = t.app.services.dialect.db;
    const { rows } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(db);
    // The pool reports the lost idle connection (without a listener its 'error' event ends the process).
    const reported = new Promise<string>((resolve) => {
      const original = console.error;
      console.error = (...args: unknown[]) => {
        console.error = original;
        resolve(String(args[0]));
      };
    });
    const admin = new pg.Client({ connectionString: DB_URL });
    await admin.connect();
    await admin.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
    await admin.end();
    assert.match(await reported, /^database: idle connection lost: /);
    assert.equal((await t.call('GET', '/api/dcim/locations/')).status, 200);
  });
});
