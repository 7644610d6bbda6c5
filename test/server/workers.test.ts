import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import pg from 'pg';
import { DB_URL, TOKEN } from '../helpers/app.js';

const PG = DB_URL.startsWith('postgres');

async function waitFor(url: string, deadline: number): Promise<Response> {
  for (;;) {
    try {
      return await fetch(url, { headers: { authorization: `Token ${TOKEN}` } });
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

describe('npm start with WORKERS=2', () => {
  it('should serve one database from two processes', { skip: PG ? false : 'needs PostgreSQL (DATABASE_URL=postgres://...)' }, async () => {
    const database = `w_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: DB_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    const url = new URL(DB_URL);
    url.pathname = `/${database}`;
    const port = 20000 + Math.floor(Math.random() * 20000);
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      env: { ...process.env, DATABASE_URL: url.toString(), PORT: String(port), HOST: '127.0.0.1', WORKERS: '2', LOG_LEVEL: 'warn', SUPERUSER_NAME: 'admin', SUPERUSER_API_TOKEN: TOKEN },
      stdio: 'ignore',
      detached: true,
    });
    try {
      const health = await waitFor(`http://127.0.0.1:${port}/health/`, Date.now() + 30000);
      assert.equal(health.status, 200);
      const created = await Promise.all(Array.from({ length: 8 }, (_, i) => fetch(`http://127.0.0.1:${port}/api/tenancy/tenants/`, {
        method: 'POST', headers: { authorization: `Token ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: `w-${i}` }),
      })));
      assert.deepEqual(created.map((r) => r.status), Array(8).fill(201));
      const list = await (await fetch(`http://127.0.0.1:${port}/api/tenancy/tenants/`, { headers: { authorization: `Token ${TOKEN}` } })).json();
      assert.equal(list.count, 8);
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
      await new Promise((r) => setTimeout(r, 500));
      await admin.query(`DROP DATABASE ${database} WITH (FORCE)`);
      await admin.end();
    }
  });
});

describe('npm start with WORKERS=2 on a SQLite file', () => {
  it('should serve one file from two processes: concurrent writes all land, every read sees the last write', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'netsot-workers-'));
    const port = 20000 + Math.floor(Math.random() * 20000);
    const base = `http://127.0.0.1:${port}`;
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      env: { ...process.env, DATABASE_URL: `sqlite:${path.join(dir, 'db.sqlite3')}`, PORT: String(port), HOST: '127.0.0.1', WORKERS: '2', LOG_LEVEL: 'warn', SUPERUSER_NAME: 'admin', SUPERUSER_API_TOKEN: TOKEN },
      stdio: 'ignore',
      detached: true,
    });
    const headers = { authorization: `Token ${TOKEN}`, 'content-type': 'application/json' };
    const count = async () => (await (await fetch(`${base}/api/tenancy/tenants/`, { headers })).json()).count;
    try {
      assert.equal((await waitFor(`${base}/health/`, Date.now() + 60000)).status, 200);
      const bulk = (n: number) => fetch(`${base}/api/tenancy/tenants/`, { method: 'POST', headers, body: JSON.stringify(Array.from({ length: 50 }, (_, i) => ({ name: `w-${n}-${i}` }))) });
      const created = await Promise.all(Array.from({ length: 8 }, (_, n) => bulk(n)));
      assert.deepEqual(created.map((r) => r.status), Array(8).fill(201));
      // Each request may reach either process; each keeps its own response cache.
      for (let i = 0; i < 6; i += 1) assert.equal(await count(), 400);
      const one = await (await fetch(`${base}/api/tenancy/tenants/?limit=1`, { headers })).json();
      assert.equal((await fetch(`${base}/api/tenancy/tenants/${one.results[0].id}/`, { method: 'DELETE', headers })).status, 204);
      for (let i = 0; i < 6; i += 1) assert.equal(await count(), 399);
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
      await new Promise((r) => setTimeout(r, 1000));
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

