import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { buildApp } from '../../src/api/app.js';
import { housekeeping } from '../../src/db/dialects/dialect.js';
import { beat, removeWorkers } from '../../src/queue/store.js';
import { loadConfig } from '../../src/core/config.js';
import { DB_URL, TOKEN, create, makeApp } from '../helpers/app.js';
import { makeUser } from '../helpers/users.js';
import type { TestApp } from '../helpers/app.js';

const onSqlite = !DB_URL.startsWith('postgres');

/** Statements one request costs, and its response. */
async function counted(t: TestApp, url: string, headers: Record<string, string> = {}) {
  const before = t.app.services.dialect.queryCount();
  const res = await t.call('GET', url, undefined, { headers });
  return { statements: t.app.services.dialect.queryCount() - before, res };
}

describe('response cache: a repeated GET is served from memory until the data moves', { concurrency: false }, () => {
  let t: TestApp;
  let tenant: any;
  before(async () => {
    t = await makeApp();
    tenant = await create(t, '/api/tenancy/tenants/', { name: 'Cached' });
  });
  after(() => t.close());

  it('a second identical list GET costs no statement on SQLite and returns the same bytes', async () => {
    const first = await counted(t, '/api/tenancy/tenants/?limit=5');
    const second = await counted(t, '/api/tenancy/tenants/?limit=5');
    assert.equal(second.res.raw, first.res.raw);
    assert.equal(second.res.headers['content-type'], 'application/json');
    assert.ok(first.statements > 0);
    // PostgreSQL reads the generation (beside the token row): one statement; other databases' writers (other test files) do not move it.
    assert.equal(second.statements, onSqlite ? 0 : 1);
  });

  it('Cache-Control: no-cache renders afresh', async () => {
    await counted(t, '/api/tenancy/tenants/?limit=5');
    const fresh = await counted(t, '/api/tenancy/tenants/?limit=5', { 'cache-control': 'no-cache' });
    assert.ok(fresh.statements > 1);
  });

  it('a write through the API is seen by the next GET (list and detail)', async () => {
    await counted(t, `/api/tenancy/tenants/${tenant.id}/`);
    assert.equal((await t.call('PATCH', `/api/tenancy/tenants/${tenant.id}/`, { description: 'changed' })).status, 200);
    assert.equal((await t.call('GET', `/api/tenancy/tenants/${tenant.id}/`)).body.description, 'changed');
    assert.equal((await t.call('GET', '/api/tenancy/tenants/?limit=5')).body.results[0].description, 'changed');
  });

  it('a write that bypasses the HTTP layer (same connection) is seen too', async () => {
    await t.call('GET', '/api/tenancy/tenants/?limit=5');
    await t.app.services.dialect.db.updateTable('tenancy_tenant').set({ description: 'direct' }).where('id', '=', tenant.id).execute();
    assert.equal((await t.call('GET', '/api/tenancy/tenants/?limit=5')).body.results[0].description, 'direct');
  });

  it("the queue runner's heartbeat leaves the cache in place; a data write after it is still seen", async () => {
    const { dialect } = t.app.services;
    await counted(t, '/api/tenancy/tenants/?limit=5');
    await housekeeping(() => beat(dialect, { id: 'cache-test-worker', hostname: 'test', pid: 1, started: Date.now() }));
    await housekeeping(() => beat(dialect, { id: 'cache-test-worker', hostname: 'test', pid: 1, started: Date.now() }));
    const again = await counted(t, '/api/tenancy/tenants/?limit=5');
    assert.equal(again.statements, onSqlite ? 0 : 1);
    await housekeeping(() => removeWorkers(dialect, 'cache-test-worker', 0));
    await dialect.db.updateTable('tenancy_tenant').set({ description: 'after the heartbeat' }).where('id', '=', tenant.id).execute();
    assert.equal((await t.call('GET', '/api/tenancy/tenants/?limit=5')).body.results[0].description, 'after the heartbeat');
  });

  it('a rolled-back transaction moves the generation past what was seen inside it', async () => {
    const dialect = t.app.services.dialect;
    let inside: string | null = null;
    await assert.rejects(dialect.db.transaction().execute(async (trx) => {
      await trx.updateTable('tenancy_tenant').set({ description: 'undone' }).where('id', '=', tenant.id).execute();
      inside = await dialect.writeGeneration();
      throw new Error('roll back');
    }));
    assert.notEqual(await dialect.writeGeneration(), inside);
    assert.notEqual((await t.call('GET', '/api/tenancy/tenants/?limit=5')).body.results[0].description, 'undone');
  });

  it('another reader never gets a body rendered for someone else', async () => {
    const limited = await makeUser(t, 'cache-reader', [{ object_types: ['tenancy.tenant'], actions: ['view'], constraints: { name: 'nothing-matches' } }]);
    assert.equal((await t.call('GET', '/api/tenancy/tenants/?limit=5')).body.count, 1);
    assert.equal((await limited.call('GET', '/api/tenancy/tenants/?limit=5')).body.count, 0);
  });

  it('absolute URLs follow the Host header of each request', async () => {
    const a = await t.call('GET', '/api/tenancy/tenants/?limit=5', undefined, { headers: { host: 'a.example' } });
    const b = await t.call('GET', '/api/tenancy/tenants/?limit=5', undefined, { headers: { host: 'b.example' } });
    assert.match(a.body.results[0].url, /^http:\/\/a\.example\//);
    assert.match(b.body.results[0].url, /^http:\/\/b\.example\//);
  });

  it('the API version asked for is part of the key', async () => {
    const v = await t.call('GET', '/api/tenancy/tenants/?limit=5', undefined, { headers: { accept: 'application/json; version=2.1' } });
    assert.equal(v.headers['api-version'], '2.1');
  });
});

describe('response cache: another process writing the same SQLite file', { skip: onSqlite ? false : 'SQLite only' }, () => {
  let dir: string;
  let app: Awaited<ReturnType<typeof buildApp>>;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cache-'));
    const config = loadConfig({ DATABASE_URL: `sqlite:${path.join(dir, 'db.sqlite3')}`, SUPERUSER_NAME: 'admin', SUPERUSER_API_TOKEN: TOKEN });
    app = await buildApp({ config });
  });
  after(async () => {
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a commit on another connection invalidates what this one cached', async () => {
    const get = async () => JSON.parse((await app.inject({ method: 'GET', url: '/api/tenancy/tenants/', headers: { authorization: `Token ${TOKEN}` } })).body);
    assert.equal((await get()).count, 0);
    const other = new Database(path.join(dir, 'db.sqlite3'));
    const now = new Date().toISOString();
    other.prepare("INSERT INTO tenancy_tenant (id, name, description, comments, created, last_updated, _custom_field_data) VALUES (?, 'Elsewhere', '', '', ?, ?, '{}')").run('3f1b9c4e-9a57-4d0e-8f4e-1f2a3b4c5d6e', now, now);
    other.close();
    assert.equal((await get()).count, 1);
  });
});
