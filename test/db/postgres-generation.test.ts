import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { buildTableSpecs } from '../../src/db/schema/build-schema.js';
import { GENERATION_SQL } from '../../src/db/dialects/postgres-generation.js';
import { DB_URL, create, makeApp } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';

const onPostgres = DB_URL.startsWith('postgres');

/**
 * The write generation on PostgreSQL is this database's (db/dialects/postgres-generation.ts):
 * it moves when a writing transaction of this database commits, whichever connection or process
 * wrote, and for nothing else (another database's writes, reads, rollbacks).
 */
describe('PostgreSQL write generation: per database, moved by every commit of ours', { skip: onPostgres ? false : 'PostgreSQL only' }, () => {
  let t: TestApp;
  let other: pg.Client;
  let elsewhere: pg.Client;
  const generation = () => t.app.services.dialect.writeGeneration();
  before(async () => {
    t = await makeApp();
    // Another process's connection to the same database, and a connection to another database of the server.
    other = new pg.Client({ connectionString: t.app.services.dialect.source?.url });
    elsewhere = new pg.Client({ connectionString: DB_URL });
    await Promise.all([other.connect(), elsewhere.connect()]);
  });
  after(async () => {
    await Promise.all([other.end(), elsewhere.end()]);
    await t.close();
  });

  it('every table of the registry carries the trigger that moves it', async () => {
    const { rows } = await other.query<{ table: string }>("SELECT c.relname AS \"table\" FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid WHERE g.tgname = 'netsot_generation_bump'");
    const tracked = new Set(rows.map((r) => r.table));
    const missing = buildTableSpecs(t.app.services.registry).map((spec) => spec.name).filter((table) => !tracked.has(table));
    assert.deepEqual(missing, []);
  });

  it('stands still while another database of the server writes, and for reads and rollbacks of ours', async () => {
    const before = await generation();
    await elsewhere.query('BEGIN');
    await elsewhere.query('CREATE TEMP TABLE IF NOT EXISTS moved (n integer)');
    await elsewhere.query('INSERT INTO moved VALUES (1)');
    await elsewhere.query('COMMIT');
    await other.query('SELECT count(*) FROM tenancy_tenant');
    await other.query('BEGIN');
    await other.query("UPDATE tenancy_tenant SET description = 'undone'");
    await other.query('ROLLBACK');
    assert.equal(await generation(), before);
  });

  it('moves when another connection commits a write, not before', async () => {
    const tenant = await create(t, '/api/tenancy/tenants/', { name: 'Generation' });
    const before = await generation();
    await other.query('BEGIN');
    await other.query('UPDATE tenancy_tenant SET description = $1 WHERE id = $2', ['pending', tenant.id]);
    const inside = (await other.query<{ g: string }>(`SELECT ${GENERATION_SQL.compile(t.app.services.dialect.db).sql} AS g`)).rows[0].g;
    assert.equal(await generation(), before);
    await other.query('COMMIT');
    const after = await generation();
    assert.notEqual(after, before);
    // What the writing connection read inside its transaction is never a committed state's generation.
    assert.notEqual(after, inside);
  });

  it('a fresh list GET sees a row another process inserted (count and rows)', async () => {
    const list = async () => (await t.call('GET', '/api/tenancy/tenants/?limit=50', undefined, { headers: { 'cache-control': 'no-cache' } })).body;
    const first = await list();
    await list();
    const now = new Date().toISOString();
    await other.query("INSERT INTO tenancy_tenant (id, name, description, comments, created, last_updated, _custom_field_data) VALUES ('3f1b9c4e-9a57-4d0e-8f4e-1f2a3b4c5d6e', 'Elsewhere', '', '', $1, $1, '{}')", [now]);
    const second = await list();
    assert.equal(second.count, first.count + 1);
    assert.ok(second.results.some((r: { name: string }) => r.name === 'Elsewhere'));
  });
});
