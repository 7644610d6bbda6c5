import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { buildApp } from '../../src/api/app.js';
import { loadConfig } from '../../src/core/config.js';
import { TOKEN } from '../helpers/app.js';

/** The embedded database in a file (the tests otherwise use memory): WAL checkpoints run in a worker thread. */
async function openFile(file: string, env: Record<string, string> = {}) {
  const config = loadConfig({ DATABASE_URL: `sqlite:${file}`, SUPERUSER_NAME: 'admin', SUPERUSER_PASSWORD: 'admin-pass', SUPERUSER_API_TOKEN: TOKEN, ...env });
  const app = await buildApp({ config });
  const headers = { authorization: `Token ${TOKEN}`, 'content-type': 'application/json' };
  return { app, headers };
}

describe('SQLite database file', () => {
  it('should keep writes across a checkpoint and a restart, and leave no write-ahead log after closing', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inventory-file-'));
    const file = path.join(dir, 'db.sqlite3');
    try {
      const first = await openFile(file);
      const made = await first.app.inject({ method: 'POST', url: '/api/tenancy/tenants/', headers: first.headers, payload: JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ name: `file-${i}` }))) });
      assert.equal(made.statusCode, 201, made.body);
      await new Promise((resolve) => setTimeout(resolve, 1300)); // one checkpoint tick
      await first.app.close();
      assert.equal(fs.existsSync(`${file}-wal`), false);
      const second = await openFile(file);
      const listed = await second.app.inject({ method: 'GET', url: '/api/tenancy/tenants/?name__isw=file-&limit=1', headers: second.headers });
      assert.equal(JSON.parse(listed.body).count, 200);
      await second.app.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('should size the page cache of the connection from SQLITE_CACHE_MB', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inventory-file-'));
    try {
      const { app } = await openFile(path.join(dir, 'db.sqlite3'), { SQLITE_CACHE_MB: '3' });
      const { rows } = await sql<{ cache_size: number }>`PRAGMA cache_size`.execute(app.services.dialect.db);
      assert.deepEqual(rows, [{ cache_size: -3 * 1024 }]);
      await app.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('should end the checkpoint thread after SQLITE_CHECKPOINT_IDLE_MS without writes and start it again on the next write', { skip: !fs.existsSync('/proc/self/task'), timeout: 30_000 }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inventory-file-'));
    const file = path.join(dir, 'db.sqlite3');
    const threads = () => fs.readdirSync('/proc/self/task').length;
    const until = async (done: () => boolean) => { while (!done()) await new Promise((resolve) => setTimeout(resolve, 100)); };
    try {
      const { app, headers } = await openFile(file, { SQLITE_CHECKPOINT_IDLE_MS: '1000' });
      const warm = await app.inject({ method: 'GET', url: '/api/tenancy/tenants/', headers });
      assert.equal(warm.statusCode, 200, warm.body);
      const withThread = threads();
      await until(() => threads() < withThread); // the start's writes checkpointed, then a quiet second
      const without = threads();
      const made = await app.inject({ method: 'POST', url: '/api/tenancy/tenants/', headers, payload: JSON.stringify({ name: 'after-idle' }) });
      assert.equal(made.statusCode, 201, made.body);
      await until(() => threads() > without); // the write brought the thread back
      await until(() => threads() <= without); // and it ends again once quiet
      await app.close();
      assert.equal(fs.existsSync(`${file}-wal`), false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('should empty a write-ahead log grown past SQLITE_WAL_LIMIT_MB while the service runs', { timeout: 60_000 }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inventory-file-'));
    const file = path.join(dir, 'db.sqlite3');
    const walBytes = () => (fs.existsSync(`${file}-wal`) ? fs.statSync(`${file}-wal`).size : 0);
    try {
      const { app, headers } = await openFile(file, { SQLITE_WAL_LIMIT_MB: '1' });
      for (let round = 0; round < 3; round++) {
        const items = Array.from({ length: 1000 }, (_, i) => ({ name: `wal-${round}-${i}`, description: 'x'.repeat(180) }));
        const made = await app.inject({ method: 'POST', url: '/api/tenancy/tenants/', headers, payload: JSON.stringify(items) });
        assert.equal(made.statusCode, 201, made.body);
      }
      assert.ok(walBytes() > 1024 * 1024, `the log holds ${walBytes()} bytes`);
      // The checkpoint thread's next ticks (every second): the log is emptied, not only copied.
      while (walBytes() > 1024 * 1024) await new Promise((resolve) => setTimeout(resolve, 100));
      const listed = await app.inject({ method: 'GET', url: '/api/tenancy/tenants/?name__isw=wal-&limit=1', headers });
      assert.equal(JSON.parse(listed.body).count, 3000);
      await app.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
