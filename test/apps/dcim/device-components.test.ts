import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import { deviceBody, makeDcimBase } from './dcim-setup.js';
import { assertRefused } from '../../helpers/refusals.js';
import type { TestApp } from '../../helpers/app.js';
import type { DcimBase } from './dcim-setup.js';

let t: TestApp;
let base: DcimBase;
let switchType: any;

/** A 48-port switch type with one template of every other kind. */
async function makeSwitchType(): Promise<any> {
  const type = await create(t, '/api/dcim/device-types/', { model: 'Switch 48', manufacturer: base.manufacturer.id, subdevice_role: 'parent' });
  const dt = type.id;
  await create(t, '/api/dcim/interface-templates/', Array.from({ length: 48 }, (_, i) => ({ device_type: dt, name: `ge-0/0/${i}`, type: '1000base-t', mgmt_only: i === 47 })));
  await create(t, '/api/dcim/console-port-templates/', { device_type: dt, name: 'con0', type: 'rj-45' });
  await create(t, '/api/dcim/console-server-port-templates/', { device_type: dt, name: 'cs0' });
  const psu = await create(t, '/api/dcim/power-port-templates/', { device_type: dt, name: 'PSU0', maximum_draw: 200, allocated_draw: 150 });
  await create(t, '/api/dcim/power-outlet-templates/', { device_type: dt, name: 'out0', power_port_template: psu.id, feed_leg: 'A' });
  const rear = await create(t, '/api/dcim/rear-port-templates/', { device_type: dt, name: 'rear0', type: 'lc', positions: 4 });
  await create(t, '/api/dcim/front-port-templates/', [1, 2, 3, 4].map((p) => ({ device_type: dt, name: `front${p}`, type: 'lc', rear_port_template: rear.id, rear_port_position: p })));
  await create(t, '/api/dcim/device-bay-templates/', { device_type: dt, name: 'bay0' });
  await create(t, '/api/dcim/module-bay-templates/', { device_type: dt, name: 'slot0' });
  return type;
}

before(async () => {
  t = await makeApp();
  base = await makeDcimBase(t);
  switchType = await makeSwitchType();
});
after(() => t.close());

const count = async (path: string, query: string) => (await t.call('GET', `/api/dcim/${path}/?${query}&limit=1`)).body.count as number;

describe('POST /api/dcim/devices/ (component templates)', () => {
  it('should create 48 interfaces from a type with 48 interface templates', async () => {
    const device = await create(t, '/api/dcim/devices/', deviceBody(base, 'sw1', { device_type: switchType.id }));
    assert.equal(await count('interfaces', `device=${device.id}`), 48);
    const mgmt = (await t.call('GET', `/api/dcim/interfaces/?device=${device.id}&name=ge-0/0/47`)).body.results[0];
    assert.equal(mgmt.mgmt_only, true);
    assert.equal(mgmt.type.value, '1000base-t');
    assert.equal(mgmt.status.id, (await t.call('GET', '/api/extras/statuses/?name=Active')).body.results[0].id);
  });

  it('should create every component kind with front ports mapped to the new rear port', async () => {
    const device = await create(t, '/api/dcim/devices/', deviceBody(base, 'sw2', { device_type: switchType.id }));
    for (const path of ['console-ports', 'console-server-ports', 'power-ports', 'power-outlets', 'rear-ports', 'device-bays']) {
      assert.equal(await count(path, `device=${device.id}`), 1, path);
    }
    assert.equal(await count('module-bays', `parent_device=${device.id}`), 1);
    const rear = (await t.call('GET', `/api/dcim/rear-ports/?device=${device.id}`)).body.results[0];
    const fronts = (await t.call('GET', `/api/dcim/front-ports/?device=${device.id}`)).body.results;
    assert.equal(fronts.length, 4);
    assert.ok(fronts.every((f: any) => f.rear_port.id === rear.id));
    assert.deepEqual(fronts.map((f: any) => f.rear_port_position).sort(), [1, 2, 3, 4]);
    const outlet = (await t.call('GET', `/api/dcim/power-outlets/?device=${device.id}`)).body.results[0];
    const psu = (await t.call('GET', `/api/dcim/power-ports/?device=${device.id}`)).body.results[0];
    assert.equal(outlet.power_port.id, psu.id);
    assert.equal(psu.allocated_draw, 150);
    const bay = (await t.call('GET', `/api/dcim/module-bays/?parent_device=${device.id}`)).body.results[0];
    assert.equal(bay.position, 'slot0', 'a blank bay position takes the name');
  });

  it('should instantiate for every device of a bulk create, and nothing when one item is invalid', async () => {
    const before = await count('interfaces', 'type=1000base-t');
    const ok = await t.call('POST', '/api/dcim/devices/', [1, 2, 3].map((i) => deviceBody(base, `bulk${i}`, { device_type: switchType.id })));
    assert.equal(ok.status, 201, ok.raw);
    assert.equal(await count('interfaces', 'type=1000base-t'), before + 3 * 48);
    const bad = await t.call('POST', '/api/dcim/devices/', [deviceBody(base, 'bulk4', { device_type: switchType.id }), deviceBody(base, 'bulk1', { device_type: switchType.id })]);
    assertRefused(bad, 400, [{}, { name: ['A device with this name already exists.'] }]);
    assert.equal(await count('interfaces', 'type=1000base-t'), before + 3 * 48, 'a failed bulk create leaves no components');
    assert.equal((await t.call('GET', '/api/dcim/devices/?name=bulk4')).body.count, 0);
  });

  it('should not instantiate again on update', async () => {
    const device = (await t.call('GET', '/api/dcim/devices/?name=sw1')).body.results[0];
    const res = await t.call('PATCH', `/api/dcim/devices/${device.id}/`, { serial: 'X1' });
    assert.equal(res.status, 200, res.raw);
    assert.equal(await count('interfaces', `device=${device.id}`), 48);
  });
});

describe('DELETE /api/dcim/devices/<id>/ (cascade)', () => {
  it('should delete the components with the device and keep the child device in its bay', async () => {
    const device = await create(t, '/api/dcim/devices/', deviceBody(base, 'doomed', { device_type: switchType.id }));
    const childType = await create(t, '/api/dcim/device-types/', { model: 'Blade', manufacturer: base.manufacturer.id, u_height: 0, subdevice_role: 'child' });
    const bay = (await t.call('GET', `/api/dcim/device-bays/?device=${device.id}`)).body.results[0];
    const child = await create(t, '/api/dcim/devices/', deviceBody(base, 'blade', { device_type: childType.id, parent_bay: bay.id }));
    const paths = ['interfaces', 'console-ports', 'power-outlets', 'front-ports', 'rear-ports', 'device-bays'];
    const ids = new Map<string, string[]>();
    for (const path of paths) ids.set(path, (await t.call('GET', `/api/dcim/${path}/?device=${device.id}&limit=100`)).body.results.map((r: any) => r.id));
    const res = await t.call('DELETE', `/api/dcim/devices/${device.id}/`);
    assert.equal(res.status, 204, res.raw);
    for (const path of paths) {
      assert.ok(ids.get(path)!.length > 0, path);
      assert.equal(await count(path, ids.get(path)!.map((id) => `id=${id}`).join('&')), 0, path);
    }
    const survivor = await t.call('GET', `/api/dcim/devices/${child.id}/`);
    assert.equal(survivor.status, 200);
    assert.equal(survivor.body.parent_bay, null);
  });

  it('should refuse to delete a virtual chassis master (409) and delete nothing', async () => {
    const device = await create(t, '/api/dcim/devices/', deviceBody(base, 'master', { device_type: switchType.id }));
    await create(t, '/api/dcim/virtual-chassis/', { name: 'vc-del', master: device.id });
    const res = await t.call('DELETE', `/api/dcim/devices/${device.id}/`);
    assert.equal(res.status, 409, res.raw);
    assert.equal(await count('interfaces', `device=${device.id}`), 48);
  });
});

describe('POST /api/dcim/devices/ (statements)', () => {
  /** Statements one bulk create of `n` devices of a type costs. */
  async function statements(type: string, n: number, tag: string): Promise<number> {
    const dialect = t.app.services.dialect;
    const before = dialect.queryCount();
    const res = await t.call('POST', '/api/dcim/devices/', Array.from({ length: n }, (_, i) => deviceBody(base, `${tag}-${i}`, { device_type: type })));
    assert.equal(res.status, 201, res.raw);
    return dialect.queryCount() - before;
  }

  it('should instantiate with one query and one insert batch per component table, whatever the number of devices', async () => {
    const empty = await create(t, '/api/dcim/device-types/', { model: 'Empty', manufacturer: base.manufacturer.id });
    const few = (await statements(switchType.id, 2, 'sa')) - (await statements(empty.id, 2, 'sb'));
    const many = (await statements(switchType.id, 20, 'sc')) - (await statements(empty.id, 20, 'sd'));
    const extraChunks = Math.ceil((20 * 48) / 200);
    assert.ok(many <= few + extraChunks, `2 devices: ${few} instantiation statements, 20 devices: ${many}`);
  });
});

describe('POST /api/dcim/devices/ (custom fields of components)', () => {
  it('should give instantiated components the default of each custom field', async () => {
    await create(t, '/api/extras/custom-fields/', { label: 'Patch panel', key: 'patch_panel', type: 'text', default: 'none', content_types: ['dcim.interface'] });
    const device = await create(t, '/api/dcim/devices/', deviceBody(base, 'cf-dev', { device_type: switchType.id }));
    const first = (await t.call('GET', `/api/dcim/interfaces/?device=${device.id}&limit=1`)).body.results[0];
    assert.deepEqual(first.custom_fields, { patch_panel: 'none' });
  });
});
