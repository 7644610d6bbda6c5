import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { migrate } from '../../src/db/schema/migrate.js';
import { create, makeApp } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';

// Databases made before the natural-order keys have no `_name` columns. Migration 3 (after the
// schema sync adds the columns) must fill them for every stored row, so the lists order as before.
let t: TestApp;

before(async () => {
  t = await makeApp();
  const type = await create(t, '/api/dcim/location-types/', { name: 'Site' });
  await create(t, '/api/dcim/locations/', ['DC 10', 'DC 9', 'DC 1'].map((name) => ({ name, location_type: type.id, status: 'Active' })));
  const db = t.app.services.dialect.db;
  await sql.raw('DROP INDEX "ix_dcim_location__name_id"').execute(db);
  await sql.raw('ALTER TABLE "dcim_location" DROP COLUMN "_name"').execute(db);
  await db.deleteFrom('inventory_migrations').where('id', '=', 3).execute();
  await migrate(t.app.services.dialect, t.app.services.registry);
});
after(() => t.close());

describe('migration 3: natural-order keys', () => {
  it('should add and fill the key of every stored row', async () => {
    const rows = await t.app.services.dialect.db.selectFrom('dcim_location').select(['name', '_name']).orderBy('name').execute();
    assert.deepEqual(rows.map((r) => [r.name, r._name]), [['DC 1', 'DC 00000001'], ['DC 10', 'DC 00000010'], ['DC 9', 'DC 00000009']]);
    const listed = (await t.call('GET', '/api/dcim/locations/')).body.results.map((r: { name: string }) => r.name);
    assert.deepEqual(listed, ['DC 1', 'DC 9', 'DC 10']);
  });
});

describe('migration 4: canonical MAC addresses', () => {
  it('should rewrite MAC addresses stored as sent', async () => {
    const { dialect, registry } = t.app.services;
    const model = registry.get('virtualization.vminterface');
    const type = await create(t, '/api/virtualization/cluster-types/', { name: 'ct' });
    const cluster = await create(t, '/api/virtualization/clusters/', { name: 'c1', cluster_type: type.id });
    const vm = await create(t, '/api/virtualization/virtual-machines/', { name: 'vm1', cluster: cluster.id, status: 'Active' });
    const made = await create(t, '/api/virtualization/interfaces/', { virtual_machine: vm.id, name: 'eth0', status: 'Active' });
    await dialect.db.updateTable(model.table).set({ mac_address: '5254.000a.0bfc' }).where('id', '=', made.id).execute();
    await dialect.db.deleteFrom('inventory_migrations').where('id', '=', 4).execute();
    await migrate(dialect, registry);
    assert.equal((await t.call('GET', `/api/virtualization/interfaces/${made.id}/`)).body.mac_address, '52:54:00:0A:0B:FC');
  });
});

describe('migration 7: descriptions of default statuses and roles', () => {
  const describedAs = async (path: string, name: string) => (await t.call('GET', `${path}?name=${encodeURIComponent(name)}`)).body.results[0].description;

  it('should seed a fresh database with the reference descriptions', async () => {
    assert.equal(await describedAs('/api/extras/statuses/', 'Available'), 'Unit is available');
    assert.equal(await describedAs('/api/extras/roles/', 'On Site'), 'Unit plays an on site role');
    assert.equal(await describedAs('/api/extras/roles/', 'Loopback'), '');
  });

  it('should fill the empty descriptions of an older database and keep the ones users wrote', async () => {
    const { dialect, registry } = t.app.services;
    const statuses = registry.get('extras.status').table;
    await dialect.db.updateTable(statuses).set({ description: '' }).where('name', 'in', ['Active', 'Retired']).execute();
    await dialect.db.updateTable(statuses).set({ description: 'ours' }).where('name', '=', 'Planned').execute();
    await dialect.db.updateTable(registry.get('extras.role').table).set({ description: '' }).where('name', '=', 'Billing').execute();
    await dialect.db.deleteFrom('inventory_migrations').where('id', '=', 7).execute();
    await migrate(dialect, registry);
    assert.equal(await describedAs('/api/extras/statuses/', 'Active'), 'Unit is active');
    assert.equal(await describedAs('/api/extras/statuses/', 'Retired'), 'Location has been retired');
    assert.equal(await describedAs('/api/extras/statuses/', 'Planned'), 'ours');
    assert.equal(await describedAs('/api/extras/roles/', 'Billing'), 'Unit plays a billing role');
  });
});
