import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { makeApp } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';

/** `dialect.readRows` (issue 22): the store's reads by statement text, run on SQLite without Kysely's executor when the connection is free. */
describe('dialect.readRows', () => {
  let t: TestApp;
  const count = async () => {
    const { dialect } = t.app.services;
    const text = dialect.name === 'postgres' ? 'SELECT count(*)::int AS n FROM read_rows_probe WHERE a >= $1' : 'SELECT count(*) AS n FROM read_rows_probe WHERE a >= ?';
    return Number((await dialect.readRows(dialect.db, text, [0]))[0].n);
  };
  before(async () => {
    t = await makeApp();
    await sql`CREATE TABLE read_rows_probe (a integer)`.execute(t.app.services.dialect.db);
    await sql`INSERT INTO read_rows_probe VALUES (1), (2)`.execute(t.app.services.dialect.db);
  });
  after(() => t.close());

  it('should read the rows and count the statement', async () => {
    const before = t.app.services.dialect.queryCount();
    assert.equal(await count(), 2);
    assert.equal(t.app.services.dialect.queryCount() - before, 1);
  });

  it('should not read another request\'s uncommitted rows while its transaction holds the connection', async () => {
    const { db } = t.app.services.dialect;
    let inserted!: () => void;
    const ready = new Promise<void>((resolve) => { inserted = resolve; });
    let finish!: () => void;
    const done = new Promise<void>((resolve) => { finish = resolve; });
    const write = db.transaction().execute(async (trx) => {
      await sql`INSERT INTO read_rows_probe VALUES (3)`.execute(trx);
      inserted();
      await done;
      throw new Error('rolled back');
    });
    await ready;
    // Read from outside the transaction while it is open; it is then rolled back.
    const read = count();
    finish();
    await assert.rejects(write, /rolled back/);
    assert.equal(await read, 2);
  });
});
