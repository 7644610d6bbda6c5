import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../helpers/app.js';
import { deviceBody, makeDcimBase } from '../apps/dcim/dcim-setup.js';
import { pageTuning } from '../../src/db/query/page.js';
import type { TestApp } from '../helpers/app.js';
import type { DcimBase } from '../apps/dcim/dcim-setup.js';

let t: TestApp;
let base: DcimBase;

const names = async (url: string): Promise<string[]> => (await t.call('GET', url)).body.results.map((r: { name: string }) => r.name);

/** Interfaces of devices `b-2`, `b-10` and `a-1`, and of a module with no device. */
const INTERFACES = ['Ethernet1/10', 'Ethernet1/2', 'Ethernet1/1', 'Ethernet2/1', 'eth0', 'Ethernet1/1.100', 'lo10', 'lo9'];

before(async () => {
  t = await makeApp();
  base = await makeDcimBase(t);
  const devices = await create(t, '/api/dcim/devices/', ['b-2', 'b-10', 'a-1'].map((n) => deviceBody(base, n)));
  await create(t, '/api/dcim/interfaces/', devices.flatMap((d: { id: string }) => INTERFACES.map((name) => ({ device: d.id, name, type: 'virtual', status: 'Active' }))));
  const bay = await create(t, '/api/dcim/module-bays/', { parent_device: devices[0].id, name: 'Slot 1' });
  const card = await create(t, '/api/dcim/module-types/', { model: 'LC', manufacturer: base.manufacturer.id });
  const module = await create(t, '/api/dcim/modules/', { module_type: card.id, parent_module_bay: bay.id, status: 'Active' });
  await create(t, '/api/dcim/interfaces/', ['m9', 'm10'].map((name) => ({ module: module.id, name, type: 'virtual', status: 'Active' })));
});
after(() => t.close());

describe('natural order of names (the reference _name)', () => {
  it('should list locations by name with numbers compared as numbers', async () => {
    await create(t, '/api/dcim/locations/', ['Site 10', 'Site 9', 'Site 100', 'site 2'].map((name) => ({ name, location_type: base.site.location_type.id, parent: base.region.id, status: 'Active' })));
    assert.deepEqual((await names('/api/dcim/locations/?limit=100')).filter((n) => /site/i.test(n)), ['Site 9', 'Site 10', 'Site 100', 'site 2']);
  });

  it('should list a device\'s interfaces by slot, type and number, as the reference naturalizes interface names', async () => {
    const device = (await t.call('GET', '/api/dcim/devices/?name=a-1')).body.results[0];
    assert.deepEqual(await names(`/api/dcim/interfaces/?device_id=${device.id}`), ['Ethernet1/1', 'Ethernet1/1.100', 'Ethernet1/2', 'Ethernet1/10', 'Ethernet2/1', 'eth0', 'lo9', 'lo10']);
  });

  it('should keep the key when a name changes', async () => {
    const device = (await t.call('GET', '/api/dcim/devices/?name=a-1')).body.results[0];
    const lo9 = (await t.call('GET', `/api/dcim/interfaces/?device_id=${device.id}&name=lo9`)).body.results[0];
    assert.equal((await t.call('PATCH', `/api/dcim/interfaces/${lo9.id}/`, { name: 'lo11' })).status, 200);
    assert.deepEqual((await names(`/api/dcim/interfaces/?device_id=${device.id}`)).slice(-2), ['lo10', 'lo11']);
    await t.call('PATCH', `/api/dcim/interfaces/${lo9.id}/`, { name: 'lo9' });
  });

  it('should order by the name itself when sort=name asks', async () => {
    assert.deepEqual((await names('/api/dcim/locations/?sort=name&limit=100')).filter((n) => /^Site/.test(n)), ['Site 10', 'Site 100', 'Site 9']);
  });
});

describe('lists ordered by a foreign key first', () => {
  it('should order interfaces by device name, then name, with device-less ones last', async () => {
    const all = (await t.call('GET', '/api/dcim/interfaces/?limit=100')).body.results;
    const owners = all.map((i: any) => (i.device ? all.length : -1));
    assert.equal(all.length, 26);
    assert.ok(owners.indexOf(-1) === 24, 'the two module interfaces (no device) come last');
    const devices = new Map((await t.call('GET', '/api/dcim/devices/')).body.results.map((d: any) => [d.id, d.name]));
    const order = all.slice(0, 24).map((i: any) => devices.get(i.device.id));
    assert.deepEqual([...new Set(order)], ['a-1', 'b-2', 'b-10']);
    assert.deepEqual(all.slice(24).map((i: any) => i.name), ['m9', 'm10']);
  });

  it('should give every page the same slice of the whole order, across the two groups', async () => {
    const whole = (await t.call('GET', '/api/dcim/interfaces/?limit=100')).body.results.map((i: any) => i.id);
    for (const [limit, offset] of [[5, 0], [5, 20], [5, 23], [3, 24], [10, 25], [4, 30]]) {
      const page = (await t.call('GET', `/api/dcim/interfaces/?limit=${limit}&offset=${offset}`)).body;
      assert.equal(page.count, 26);
      assert.deepEqual(page.results.map((i: any) => i.id), whole.slice(offset, offset + limit), `limit ${limit} offset ${offset}`);
    }
  });

  it('should put the device-less ones first in descending order, and honour filters', async () => {
    const desc = (await t.call('GET', '/api/dcim/interfaces/?sort=-device&limit=100')).body.results;
    assert.deepEqual(desc.slice(0, 2).map((i: any) => i.device), [null, null]);
    const filtered = (await t.call('GET', '/api/dcim/interfaces/?name=eth0&name=m10&limit=2&offset=2')).body;
    assert.equal(filtered.count, 4);
    assert.deepEqual(filtered.results.map((i: any) => i.name), ['eth0', 'm10']);
  });

  it('should export CSV in the same order as the list', async () => {
    const ids = (await t.call('GET', '/api/dcim/interfaces/?limit=100')).body.results.map((i: any) => i.id);
    const csv = (await t.call('GET', '/api/dcim/interfaces/?format=csv&limit=100')).raw.trim().split('\n');
    const idColumn = csv[0].split(',').indexOf('id');
    assert.deepEqual(csv.slice(1).map((line) => line.split(',')[idColumn]), ids);
  });
});

describe('orders through a foreign key expand the target\'s own ordering, as Django does', () => {
  it('should order templates by their device type\'s manufacturer name, then model', async () => {
    const [alpha, zeta] = await create(t, '/api/dcim/manufacturers/', [{ name: 'Alpha' }, { name: 'Zeta' }]);
    const [aBox, zBox] = await create(t, '/api/dcim/device-types/', [{ model: 'A-box', manufacturer: zeta.id }, { model: 'Z-box', manufacturer: alpha.id }]);
    await create(t, '/api/dcim/interface-templates/', [aBox, zBox].flatMap((dt: { id: string }) => ['if2', 'if10'].map((name) => ({ device_type: dt.id, name, type: 'virtual' }))));
    const listed = (await t.call('GET', '/api/dcim/interface-templates/?limit=100')).body.results.map((r: any) => `${r.device_type.id === zBox.id ? 'Z-box' : 'A-box'}:${r.name}`);
    assert.deepEqual(listed, ['Z-box:if2', 'Z-box:if10', 'A-box:if2', 'A-box:if10']);
    const reversed = (await t.call('GET', '/api/dcim/interface-templates/?sort=-device_type&limit=100')).body.results.map((r: any) => r.device_type.id);
    assert.deepEqual(reversed, [aBox.id, aBox.id, zBox.id, zBox.id]);
  });
});

describe('a list led by an FK with many targets (walked in one join) or few (read a target at a time)', () => {
  it('should give the same order and pages either way, group-less rows last', async () => {
    const groups = await create(t, '/api/tenancy/tenant-groups/', Array.from({ length: 70 }, (_, i) => ({ name: `grp-${String(70 - i).padStart(2, '0')}` })));
    await create(t, '/api/tenancy/tenants/', [
      ...groups.flatMap((g: { id: string }, i: number) => [{ name: `ten-${i}-b`, tenant_group: g.id }, { name: `ten-${i}-a`, tenant_group: g.id }]),
      { name: 'lonely-2' }, { name: 'lonely-10' },
    ]);
    const whole = (await t.call('GET', '/api/tenancy/tenants/?limit=1000')).body.results;
    const names = new Map(groups.map((g: { id: string; name: string }) => [g.id, g.name]));
    const keys = whole.map((x: any) => (x.tenant_group ? `${names.get(x.tenant_group.id)}/${x.name}` : `~/${x.name}`));
    assert.deepEqual(keys, [...keys].sort(), 'by group name, then tenant name, group-less last');
    assert.equal(keys.length, 142);
    for (const [limit, offset] of [[7, 0], [10, 135], [5, 140], [50, 100]]) {
      const page = (await t.call('GET', `/api/tenancy/tenants/?limit=${limit}&offset=${offset}`)).body.results.map((x: any) => x.id);
      assert.deepEqual(page, whole.slice(offset, offset + limit).map((x: any) => x.id), `limit ${limit} offset ${offset}`);
    }
  });
});


/** The SQL texts of the statements `fn` runs (through the page reader or Kysely). */
async function statementsOf(fn: () => Promise<unknown>): Promise<string[]> {
  const dialect = t.app.services.dialect;
  const texts: string[] = [];
  const { readRows, readArrays } = dialect;
  const executeQuery = dialect.db.executeQuery.bind(dialect.db);
  dialect.readRows = async (exec, text, params) => (texts.push(text), readRows(exec, text, params));
  if (readArrays) dialect.readArrays = async (exec, text, params) => (texts.push(text), readArrays(exec, text, params));
  (dialect.db as { executeQuery: unknown }).executeQuery = async (query: { sql: string }) => (texts.push(query.sql), executeQuery(query as never));
  try {
    await fn();
  } finally {
    Object.assign(dialect, { readRows, readArrays });
    (dialect.db as { executeQuery: unknown }).executeQuery = executeQuery;
  }
  return texts;
}

describe('deep offsets: a slice reads the ids it skips, then their rows', () => {
  // Tenants by group: 70 groups (the test above), walked in one join; interfaces by device: read a device at a time.
  const lists = ['/api/tenancy/tenants/?limit=1000', '/api/dcim/interfaces/?limit=100', '/api/dcim/interfaces/?sort=-device&limit=100', '/api/dcim/interfaces/?name=eth0&name=m10&limit=100', '/api/dcim/locations/?limit=100', '/api/dcim/devices/?sort=-name&limit=100'];
  const ids = async (url: string) => (await t.call('GET', url)).body.results.map((r: { id: string }) => r.id) as string[];

  it('should give every page the same slice of the whole order as OFFSET over whole rows', async () => {
    for (const url of lists) {
      const whole = await ids(url);
      assert.ok(whole.length > 2, url);
      pageTuning.deepOffset = 1;
      try {
        for (const [limit, offset] of [[2, 1], [3, whole.length - 3], [5, whole.length - 2], [50, Math.floor(whole.length / 2)]]) {
          assert.deepEqual(await ids(`${url}&limit=${limit}&offset=${offset}`), whole.slice(offset, offset + limit), `${url} limit ${limit} offset ${offset}`);
        }
      } finally {
        pageTuning.deepOffset = 1000;
      }
    }
  });

  it('should read a deep slice through a subquery of ids, and a shallow one directly', async () => {
    const deep = await statementsOf(async () => {
      pageTuning.deepOffset = 2;
      try {
        await t.call('GET', '/api/dcim/locations/?limit=2&offset=2');
      } finally {
        pageTuning.deepOffset = 1000;
      }
    });
    assert.ok(deep.some((text) => text.includes('netsot_page')), deep.join('\n'));
    const shallow = await statementsOf(() => t.call('GET', '/api/dcim/locations/?limit=2&offset=1'));
    assert.ok(!shallow.some((text) => text.includes('netsot_page')), shallow.join('\n'));
  });
});
