import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { TOKEN } from '../helpers/app.js';

async function waitFor(url: string, deadline: number): Promise<Response> {
  for (;;) {
    try {
      return await fetch(url);
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

describe('GraphQL with WORKERS=2 on a SQLite file', () => {
  it('should serve a new custom field from every process without a restart', { timeout: 180_000 }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'netsot-gql-workers-'));
    const port = 20000 + Math.floor(Math.random() * 20000);
    const base = `http://127.0.0.1:${port}`;
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      env: { ...process.env, DATABASE_URL: `sqlite:${path.join(dir, 'db.sqlite3')}`, PORT: String(port), HOST: '127.0.0.1', WORKERS: '2', LOG_LEVEL: 'warn', SUPERUSER_NAME: 'admin', SUPERUSER_API_TOKEN: TOKEN },
      stdio: 'ignore',
      detached: true,
    });
    const headers = { authorization: `Token ${TOKEN}`, 'content-type': 'application/json' };
    const query = () => fetch(`${base}/api/graphql/`, { method: 'POST', headers, body: JSON.stringify({ query: '{ tenants { name cf_region } }' }) });
    try {
      assert.equal((await waitFor(`${base}/health/`, Date.now() + 60000)).status, 200);
      await fetch(`${base}/api/tenancy/tenants/`, { method: 'POST', headers, body: JSON.stringify({ name: 'acme' }) });
      // Both processes build their schema before the custom field exists (parallel requests reach both).
      assert.deepEqual((await Promise.all(Array.from({ length: 8 }, query))).map((r) => r.status), Array(8).fill(400));
      const field = await fetch(`${base}/api/extras/custom-fields/`, { method: 'POST', headers, body: JSON.stringify({ label: 'Region', key: 'region', type: 'text', content_types: ['tenancy.tenant'] }) });
      assert.equal(field.status, 201);
      const after = await Promise.all(Array.from({ length: 8 }, query));
      assert.deepEqual(after.map((r) => r.status), Array(8).fill(200));
      assert.deepEqual(await after[0].json(), { data: { tenants: [{ name: 'acme', cf_region: null }] } });
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
      await new Promise((r) => setTimeout(r, 1000));
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
