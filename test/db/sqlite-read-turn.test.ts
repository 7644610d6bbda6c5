import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { createSqliteDialect } from '../../src/db/dialects/sqlite.js';

/** A file database with one table, a dialect over it, and another connection that writes to it (as a job thread or another worker would). */
function openPair() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inventory-turn-'));
  const file = path.join(dir, 'db.sqlite3');
  const other = new Database(file);
  other.pragma('journal_mode = WAL');
  other.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT); INSERT INTO t VALUES (1, \'a\')');
  const dialect = createSqliteDialect(file);
  const read = async () => (await dialect.readRows(dialect.db, 'SELECT v FROM t WHERE id = ?', [1]))[0].v;
  const close = async () => {
    await dialect.close();
    other.close();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  return { dialect, other, read, close };
}

describe('SQLite reads of one turn of the event loop', () => {
  it('should read one state within a turn and every earlier commit in the next', async () => {
    const { other, read, dialect, close } = openPair();
    try {
      const generation = await dialect.writeGeneration();
      assert.equal(await read(), 'a');
      other.prepare('UPDATE t SET v = ? WHERE id = 1').run('b');
      // The same turn (microtasks of one callback): one read transaction, begun before the commit.
      assert.equal(await read(), 'a');
      assert.equal(await dialect.writeGeneration(), generation);
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(await read(), 'b');
      assert.notEqual(await dialect.writeGeneration(), generation);
    } finally {
      await close();
    }
  });

  it('should end the turn\'s read transaction before a write of its own, which the next read sees', async () => {
    const { other, read, dialect, close } = openPair();
    try {
      assert.equal(await read(), 'a');
      other.prepare('UPDATE t SET v = ? WHERE id = 1').run('b');
      // A write in the same turn: no stale snapshot to upgrade (SQLITE_BUSY_SNAPSHOT), no write left uncommitted.
      await dialect.db.transaction().execute(async (trx) => {
        await trx.updateTable('t' as never).set({ v: 'c' } as never).execute();
      });
      assert.equal(await read(), 'c');
      const returned = await dialect.db.updateTable('t' as never).set({ v: 'd' } as never).returning('v' as never).execute();
      assert.deepEqual(returned, [{ v: 'd' }]);
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(other.prepare('SELECT v FROM t WHERE id = 1').pluck().get(), 'd');
    } finally {
      await close();
    }
  });
});
