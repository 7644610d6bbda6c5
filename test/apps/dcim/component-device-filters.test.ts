import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { countStatements, create, listed, makeApp } from '../../helpers/app.js';
import { deviceBody, makeDcimBase } from './dcim-setup.js';
import type { TestApp } from '../../helpers/app.js';
import type { DcimBase } from './dcim-setup.js';

let t: TestApp;
let base: DcimBase;
const w: Record<string, any> = {};

/** The modular components other than interfaces: endpoint and the body of one named component. */
const MODULAR: Record<string, (name: string) => Record<string, unknown>> = {
  'console-ports': (name) => ({ name }),
  'console-server-ports': (name) => ({ name }),
  'power-ports': (name) => ({ name }),
  'power-outlets': (name) => ({ name }),
  'rear-ports': (name) => ({ name, type: 'lc', positions: 1 }),
};

/** One of each modular component (front port on its own rear port) on an owner (`{device}` or `{module}`), each named `tag`. */
async function components(owner: Record<string, string>, tag: string): Promise<void> {
  for (const [path, body] of Object.entries(MODULAR)) {
    const made = await create(t, `/api/dcim/${path}/`, { ...owner, ...body(tag) });
    if (path === 'rear-ports') await create(t, '/api/dcim/front-ports/', { ...owner, name: tag, type: 'lc', rear_port: made.id, rear_port_position: 1 });
  }
}

const iface = (owner: Record<string, string>, name: string, mgmtOnly = false) =>
  create(t, '/api/dcim/interfaces/', { ...owner, name, type: '1000base-t', status: 'Active', mgmt_only: mgmtOnly });

const bay = (parent: Record<string, string>, name: string) => create(t, '/api/dcim/module-bays/', { ...parent, name });
const mod = (parentBay: { id: string }) => create(t, '/api/dcim/modules/', { module_type: w.lineCard.id, parent_module_bay: parentBay.id, status: 'Active' });

async function refused(url: string, filter: string, message?: string): Promise<void> {
  const res = await t.call('GET', url);
  assert.equal(res.status, 400, res.raw);
  assert.deepEqual(Object.keys(res.body), [filter], res.raw);
  if (message) assert.deepEqual(res.body[filter], [message]);
}

/**
 * Device `chassis` carries components `own` and modules five deep (m1 in its bay, m2 in a bay of
 * m1, ... m5), module m<n> carrying components `d<n>`; device `other` carries `other`. Devices
 * vc1 (master), vc2 and vc3 form a virtual chassis; vc4 is in a chassis with no master.
 */
before(async () => {
  t = await makeApp();
  base = await makeDcimBase(t);
  w.lineCard = await create(t, '/api/dcim/module-types/', { model: 'LC', manufacturer: base.manufacturer.id });
  const enclosure = await create(t, '/api/dcim/device-types/', { model: 'Enclosure', manufacturer: base.manufacturer.id, subdevice_role: 'parent' });
  w.chassis = await create(t, '/api/dcim/devices/', deviceBody(base, 'chassis', { device_type: enclosure.id }));
  w.other = await create(t, '/api/dcim/devices/', deviceBody(base, 'other', { device_type: enclosure.id }));
  w.modules = [await mod(await bay({ parent_device: w.chassis.id }, 'Slot 1'))];
  for (let depth = 2; depth <= 5; depth += 1) w.modules.push(await mod(await bay({ parent_module: w.modules[depth - 2].id }, 'Sub')));
  await components({ device: w.chassis.id }, 'own');
  for (const [i, m] of w.modules.entries()) await components({ module: m.id }, `d${i + 1}`);
  await components({ device: w.other.id }, 'other');
  for (const [i, m] of w.modules.entries()) await iface({ module: m.id }, `d${i + 1}`);
  await iface({ device: w.chassis.id }, 'own');
  await iface({ device: w.other.id }, 'other');

  w.vc1 = await create(t, '/api/dcim/devices/', deviceBody(base, 'vc1'));
  w.vc2 = await create(t, '/api/dcim/devices/', deviceBody(base, 'vc2'));
  w.vc3 = await create(t, '/api/dcim/devices/', deviceBody(base, 'vc3'));
  w.vc4 = await create(t, '/api/dcim/devices/', deviceBody(base, 'vc4'));
  const stack = await create(t, '/api/dcim/virtual-chassis/', { name: 'stack', master: w.vc1.id });
  const headless = await create(t, '/api/dcim/virtual-chassis/', { name: 'headless' });
  for (const [device, chassis, position] of [[w.vc2, stack, 2], [w.vc3, stack, 3], [w.vc4, headless, 1]]) {
    const res = await t.call('PATCH', `/api/dcim/devices/${device.id}/`, { virtual_chassis: chassis.id, vc_position: position });
    assert.equal(res.status, 200, res.raw);
  }
  const vc2Module = await mod(await bay({ parent_device: w.vc2.id }, 'Slot 1'));
  await iface({ device: w.vc1.id }, 'vc1:eth0');
  await iface({ device: w.vc1.id }, 'vc1:mgmt0', true);
  await iface({ device: w.vc2.id }, 'vc2:eth0');
  await iface({ device: w.vc2.id }, 'vc2:mgmt0', true);
  await iface({ module: vc2Module.id }, 'vc2m:et-1');
  await iface({ module: vc2Module.id }, 'vc2m:et-mgmt', true);
  await iface({ device: w.vc3.id }, 'vc3:eth0');
  await iface({ device: w.vc4.id }, 'vc4:eth0');
  await create(t, '/api/dcim/console-ports/', { device: w.vc2.id, name: 'con-vc2' });
  await create(t, '/api/dcim/console-ports/', { device: w.vc1.id, name: 'con-vc1' });

  w.bays = { chassis: await create(t, '/api/dcim/device-bays/', { device: w.chassis.id, name: 'Bay 1' }), other: await create(t, '/api/dcim/device-bays/', { device: w.other.id, name: 'Bay 1' }) };
  await create(t, '/api/dcim/inventory-items/', { device: w.chassis.id, name: 'fan tray' });
  await create(t, '/api/dcim/inventory-items/', { device: w.other.id, name: 'psu' });
});
after(() => t.close());

describe('device filter of modular components (console, console server, power ports and outlets, front and rear ports)', () => {
  const onChassis = ['d1', 'd2', 'd3', 'own'];

  it('the device\'s own components and those of modules at most three deep in it, by name or id', async () => {
    for (const path of [...Object.keys(MODULAR), 'front-ports']) {
      const names = (query: string) => listed(t, `/api/dcim/${path}/?${query}`);
      assert.deepEqual(await names('device=chassis'), onChassis, path);
      assert.deepEqual(await names(`device=${w.chassis.id}`), onChassis, path);
      assert.deepEqual(await names(`device=chassis&device=${w.other.id}`), [...onChassis, 'other'].sort(), path);
      assert.deepEqual(await names('device=other'), ['other'], path);
      await refused(`/api/dcim/${path}/?device=nodevice`, 'device', 'Select a valid choice. nodevice is not one of the available choices.');
    }
  });

  it('no virtual-chassis semantics: a master gets its own components only', async () => {
    assert.deepEqual(await listed(t, '/api/dcim/console-ports/?device=vc1'), ['con-vc1']);
    assert.deepEqual(await listed(t, `/api/dcim/console-ports/?device=${w.vc2.id}`), ['con-vc2']);
  });

  it('device_id is not a filter of theirs', async () => {
    const res = await t.call('GET', `/api/dcim/console-ports/?device_id=${w.chassis.id}`);
    assert.equal(res.status, 400, res.raw);
    assert.deepEqual(res.body, { device_id: ['Unknown filter field'] });
  });

  it('costs two statements (naming the devices, finding their modules) beyond the list query, whatever the devices hold', async () => {
    // With no row to render, the count is the filters' cost: every module depth comes in one recursive statement.
    const bare = await countStatements(t, '/api/dcim/power-ports/?name=none');
    assert.equal(await countStatements(t, '/api/dcim/power-ports/?device=chassis&device=other&name=none'), bare + 2);
    assert.equal(await countStatements(t, '/api/dcim/power-ports/?device=other&name=none'), bare + 2);
  });
});

describe('device and device_id filters of interfaces', () => {
  it('a lone device: its own interfaces and those of modules at most four deep in it', async () => {
    for (const query of ['device=chassis', `device=${w.chassis.id}`, `device_id=${w.chassis.id}`]) {
      assert.deepEqual(await listed(t, `/api/dcim/interfaces/?${query}`), ['d1', 'd2', 'd3', 'd4', 'own'], query);
    }
    assert.deepEqual(await listed(t, `/api/dcim/interfaces/?device=chassis&device=other`), ['d1', 'd2', 'd3', 'd4', 'other', 'own']);
    assert.deepEqual(await listed(t, `/api/dcim/interfaces/?device_id=${w.other.id}`), ['other']);
  });

  it('a virtual-chassis master: also the other members\' interfaces (their modules\' too) that are not management-only', async () => {
    for (const query of ['device=vc1', `device=${w.vc1.id}`, `device_id=${w.vc1.id}`]) {
      assert.deepEqual(await listed(t, `/api/dcim/interfaces/?${query}`, 'name'), ['vc1:eth0', 'vc1:mgmt0', 'vc2:eth0', 'vc2m:et-1', 'vc3:eth0'], query);
    }
  });

  it('a member that is not the master, or a device in a chassis without a master: its own and its modules\' only', async () => {
    for (const query of ['device=vc2', `device_id=${w.vc2.id}`]) {
      assert.deepEqual(await listed(t, `/api/dcim/interfaces/?${query}`, 'name'), ['vc2:eth0', 'vc2:mgmt0', 'vc2m:et-1', 'vc2m:et-mgmt'], query);
    }
    assert.deepEqual(await listed(t, '/api/dcim/interfaces/?device=vc4', 'name'), ['vc4:eth0']);
    // A master and a member together: the union (the member's management interfaces included).
    assert.deepEqual(await listed(t, '/api/dcim/interfaces/?device=vc1&device=vc2'),
      ['vc1:eth0', 'vc1:mgmt0', 'vc2:eth0', 'vc2:mgmt0', 'vc2m:et-1', 'vc2m:et-mgmt', 'vc3:eth0']);
  });

  it('bad values: device takes ids or names, device_id ids only', async () => {
    await refused('/api/dcim/interfaces/?device=nodevice', 'device', 'Select a valid choice. nodevice is not one of the available choices.');
    await refused('/api/dcim/interfaces/?device_id=chassis', 'device_id', '“chassis” is not a valid value.');
    await refused('/api/dcim/interfaces/?device_id=00000000-0000-4000-8000-000000000000', 'device_id',
      'Select a valid choice. 00000000-0000-4000-8000-000000000000 is not one of the available choices.');
  });

  it('costs two statements (naming the devices, finding their chassis members and modules) beyond the list query, whatever the devices hold', async () => {
    const bare = await countStatements(t, '/api/dcim/interfaces/?name=none');
    assert.equal(await countStatements(t, '/api/dcim/interfaces/?device=vc4&name=none'), bare + 2);
    assert.equal(await countStatements(t, '/api/dcim/interfaces/?device=vc1&device=chassis&name=none'), bare + 2);
    assert.equal(await countStatements(t, `/api/dcim/interfaces/?device_id=${w.chassis.id}&device_id=${w.vc1.id}&name=none`), bare + 2);
  });
});

describe('device filters that stay the plain FK match', () => {
  it('device bays: the device\'s own bays', async () => {
    assert.deepEqual(await listed(t, '/api/dcim/device-bays/?device=chassis', 'id'), [w.bays.chassis.id]);
    assert.deepEqual(await listed(t, `/api/dcim/device-bays/?device=${w.other.id}`, 'id'), [w.bays.other.id]);
    assert.deepEqual(await listed(t, '/api/dcim/device-bays/?device=vc1', 'id'), []);
    assert.deepEqual(await listed(t, '/api/dcim/device-bays/?device__n=chassis', 'id'), [w.bays.other.id]);
    await refused('/api/dcim/device-bays/?device=nodevice', 'device');
  });

  it('inventory items: the device\'s own items', async () => {
    assert.deepEqual(await listed(t, '/api/dcim/inventory-items/?device=chassis'), ['fan tray']);
    assert.deepEqual(await listed(t, `/api/dcim/inventory-items/?device=${w.other.id}`), ['psu']);
    await refused('/api/dcim/inventory-items/?device=nodevice', 'device');
  });

  it('module bays: no device filter; parent_device is the bays on the device itself', async () => {
    const res = await t.call('GET', '/api/dcim/module-bays/?device=chassis');
    assert.equal(res.status, 400, res.raw);
    assert.deepEqual(res.body, { device: ['Unknown filter field'] });
    assert.deepEqual(await listed(t, '/api/dcim/module-bays/?parent_device=chassis'), ['Slot 1']);
  });
});
