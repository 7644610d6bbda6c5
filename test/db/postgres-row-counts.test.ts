import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { buildTableSpecs } from '../../src/db/schema/build-schema.js';
import { connect } from '../../src/db/connect.js';
import { DB_URL, TOKEN, create, makeApp } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';

const onPostgres = DB_URL.startsWith('postgres');

/**
 * On PostgreSQL a whole table's row count is kept by triggers (db/dialects/postgres-row-counts.ts)
 * and an unfiltered list's `count` is read from it: exact after every kind of write, whoever makes
 * it, and never read from rows.
 */
describe('PostgreSQL kept row counts: unfiltered list counts', { skip: onPostgres ? false : 'PostgreSQL only' }, () => {
  let t: TestApp;
  let other: pg.Client;
  const headers = { authorization: `Token ${TOKEN}`, accept: 'application/json' };
  const listCount = async (path: string) => {
    const res = await t.app.inject({ method: 'GET', url: `${path}?limit=1`, headers: { ...headers, 'cache-control': 'no-cache' } });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().count as number;
  };
  const rowsIn = async (table: string) => Number((await other.query(`SELECT count(*) AS n FROM "${table}"`)).rows[0].n);
  const kept = async (table: string) => Number((await other.query('SELECT coalesce(sum(n), 0) AS n FROM netsot_row_counts WHERE tbl = $1', [table])).rows[0].n);

  before(async () => {
    t = await makeApp();
    other = new pg.Client({ connectionString: t.app.services.dialect.source?.url });
    await other.connect();
  });
  after(async () => {
    await other.end();
    await t.close();
  });

  it('every table of the registry has its count kept, equal to its rows', async () => {
    for (const { name } of buildTableSpecs(t.app.services.registry)) {
      assert.ok(t.app.services.dialect.rowCountSql?.(name), `${name} is not counted`);
      assert.equal(await kept(name), await rowsIn(name), name);
    }
  });

  it('the list count is read from the kept count, not from the rows', async () => {
    await create(t, '/api/tenancy/tenants/', { name: 'counted-1' });
    const real = await listCount('/api/tenancy/tenants/');
    // Another connection moves the kept count alone, and the generation with it (a write of no row still fires its trigger): the list follows it.
    const move = (by: number) => other.query(`BEGIN;
      UPDATE netsot_row_counts SET n = n + ${by} WHERE tbl = 'tenancy_tenant' AND slot = (SELECT min(slot) FROM netsot_row_counts WHERE tbl = 'tenancy_tenant');
      UPDATE tenancy_tenant SET description = description WHERE false;
      COMMIT`);
    await move(1000);
    try {
      assert.equal(await listCount('/api/tenancy/tenants/'), real + 1000);
    } finally {
      await move(-1000);
    }
    assert.equal(await listCount('/api/tenancy/tenants/'), real);
  });

  it('stays exact through single, bulk and failed writes, cascades, other connections and TRUNCATE', async () => {
    const tenants = '/api/tenancy/tenants/';
    const start = await listCount(tenants);
    const made = await t.app.inject({ method: 'POST', url: tenants, headers, payload: Array.from({ length: 30 }, (_, i) => ({ name: `bulk-${i}` })) });
    assert.equal(made.statusCode, 201, made.body);
    assert.equal(await listCount(tenants), start + 30);
    // All or none: the second object fails, nothing is created and the count stands.
    const failed = await t.app.inject({ method: 'POST', url: tenants, headers, payload: [{ name: 'fine' }, { name: 'bulk-0' }] });
    assert.equal(failed.statusCode, 400, failed.body);
    assert.equal(await listCount(tenants), start + 30);
    const gone = await t.app.inject({ method: 'DELETE', url: tenants, headers, payload: made.json().slice(0, 10).map((x: { id: string }) => ({ id: x.id })) });
    assert.equal(gone.statusCode, 204, gone.body);
    assert.equal(await listCount(tenants), start + 20);
    await other.query("INSERT INTO tenancy_tenant (id, name, description, comments, created, last_updated, _custom_field_data) SELECT gen_random_uuid(), 'psql-' || i, '', '', now(), now(), '{}' FROM generate_series(1, 5) AS i");
    assert.equal(await listCount(tenants), start + 25);
    assert.equal(await kept('tenancy_tenant'), await rowsIn('tenancy_tenant'));

    // A cascade: deleting a device takes its interfaces with it.
    const device = await seedDevice(t, 3);
    const interfaces = await listCount('/api/dcim/interfaces/');
    const del = await t.app.inject({ method: 'DELETE', url: `/api/dcim/devices/${device}/`, headers });
    assert.equal(del.statusCode, 204, del.body);
    assert.equal(await listCount('/api/dcim/interfaces/'), interfaces - 3);
    assert.equal(await kept('dcim_interface'), await rowsIn('dcim_interface'));

    await other.query('TRUNCATE "tenancy_tenant" CASCADE');
    assert.equal(await listCount(tenants), 0);
    assert.equal(await kept('tenancy_tenant'), 0);
  });

  it('a process that does not migrate (a WORKERS fork) reads the kept counts once it has learnt which tables have them', async () => {
    const dialect = connect(t.app.services.dialect.source?.url as string);
    try {
      // First need: not known yet, so count(*); known once the one read of the tables has come back.
      assert.equal(dialect.rowCountSql?.('tenancy_tenant'), undefined);
      for (let i = 0; i < 200 && !dialect.rowCountSql?.('tenancy_tenant'); i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
      assert.ok(dialect.rowCountSql?.('tenancy_tenant'));
      assert.equal(dialect.rowCountSql?.('no_such_table'), undefined);
    } finally {
      await dialect.close();
    }
  });

  it('a table whose kept count went missing is counted again at the next start', async () => {
    await create(t, '/api/tenancy/tenant-groups/', { name: 'group-1' });
    await other.query("DELETE FROM netsot_row_counts WHERE tbl = 'tenancy_tenantgroup'");
    await t.app.services.dialect.trackWrites?.(['tenancy_tenantgroup']);
    assert.equal(await kept('tenancy_tenantgroup'), await rowsIn('tenancy_tenantgroup'));
    assert.equal(await listCount('/api/tenancy/tenant-groups/'), await rowsIn('tenancy_tenantgroup'));
  });
});

/** A device with `interfaces` interfaces (and what it needs); its id. */
async function seedDevice(t: TestApp, interfaces: number): Promise<string> {
  const status = (await t.app.inject({ method: 'GET', url: '/api/extras/statuses/?name=Active', headers: { authorization: `Token ${TOKEN}` } })).json().results[0].id;
  const type = await create(t, '/api/dcim/location-types/', { name: 'Site', content_types: ['dcim.device'] });
  const location = await create(t, '/api/dcim/locations/', { name: 'L1', location_type: type.id, status });
  const maker = await create(t, '/api/dcim/manufacturers/', { name: 'M1' });
  const model = await create(t, '/api/dcim/device-types/', { model: 'T1', manufacturer: maker.id });
  const role = await create(t, '/api/extras/roles/', { name: 'R1', content_types: ['dcim.device'] });
  const device = await create(t, '/api/dcim/devices/', { name: 'D1', device_type: model.id, location: location.id, status, role: role.id });
  for (let i = 0; i < interfaces; i += 1) await create(t, '/api/dcim/interfaces/', { device: device.id, name: `eth${i}`, type: '1000base-t', status });
  return device.id;
}
