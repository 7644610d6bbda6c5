import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, listed, makeApp } from '../../helpers/app.js';
import { deviceBody, makeDcimBase } from './dcim-setup.js';
import type { TestApp } from '../../helpers/app.js';
import type { DcimBase } from './dcim-setup.js';

let t: TestApp;
let base: DcimBase;
const w: Record<string, any> = {};

const ids = (...objects: { id: string }[]) => objects.map((o) => o.id).sort();
const bay = (parent: Record<string, string>, name: string, extra: Record<string, unknown> = {}) => create(t, '/api/dcim/module-bays/', { ...parent, name, ...extra });
const mod = (type: { id: string }, parentBay: { id: string }) => create(t, '/api/dcim/modules/', { module_type: type.id, parent_module_bay: parentBay.id, status: 'Active' });
const iface = (owner: Record<string, string>, name: string) => create(t, '/api/dcim/interfaces/', { ...owner, name, type: '1000base-t', status: 'Active' });

/** The 400 of a bad filter value names the filter. */
async function refused(url: string, filter: string): Promise<void> {
  const res = await t.call('GET', url);
  assert.equal(res.status, 400, res.raw);
  assert.ok(Array.isArray(res.body[filter]), res.raw);
}

/**
 * Locations EU (Region) > Berlin, Paris (Site) > Room 1 (Room) > F1 > F1a (nestable Floor).
 * Device `chassis` holds modules five deep (m1 in its bay, m2 in a bay of m1, ... m5) and a PSU
 * module in a bay requiring the PSU family; device `other` holds one module. Devices vc1 and vc2
 * form a virtual chassis; vc2 holds a module with an interface.
 */
before(async () => {
  t = await makeApp();
  base = await makeDcimBase(t);
  w.floorType = await create(t, '/api/dcim/location-types/', { name: 'Floor', parent: base.roomType.id, nestable: true, content_types: [] });
  w.f1 = await create(t, '/api/dcim/locations/', { name: 'F1', location_type: w.floorType.id, parent: base.room.id, status: 'Active' });
  w.f1a = await create(t, '/api/dcim/locations/', { name: 'F1a', location_type: w.floorType.id, parent: w.f1.id, status: 'Active' });
  w.psu = await create(t, '/api/dcim/module-families/', { name: 'PSU' });
  w.fan = await create(t, '/api/dcim/module-families/', { name: 'FAN' });
  w.lineCard = await create(t, '/api/dcim/module-types/', { model: 'LC', manufacturer: base.manufacturer.id });
  w.psuType = await create(t, '/api/dcim/module-types/', { model: 'PSU-1', manufacturer: base.manufacturer.id, module_family: w.psu.id });
  w.chassis = await create(t, '/api/dcim/devices/', deviceBody(base, 'chassis'));
  w.other = await create(t, '/api/dcim/devices/', deviceBody(base, 'other'));
  w.slot = await bay({ parent_device: w.chassis.id }, 'Slot 1');
  w.psuBay = await bay({ parent_device: w.chassis.id }, 'PSU bay', { module_family: w.psu.id });
  w.fanBay = await bay({ parent_device: w.chassis.id }, 'FAN bay', { module_family: w.fan.id });
  w.chain = [await mod(w.lineCard, w.slot)];
  for (let depth = 2; depth <= 5; depth += 1) w.chain.push(await mod(w.lineCard, await bay({ parent_module: w.chain[depth - 2].id }, 'sub')));
  w.psuModule = await mod(w.psuType, w.psuBay);
  w.otherModule = await mod(w.lineCard, await bay({ parent_device: w.other.id }, 'Slot 1'));
  w.vc1 = await create(t, '/api/dcim/devices/', deviceBody(base, 'vc1'));
  w.vc2 = await create(t, '/api/dcim/devices/', deviceBody(base, 'vc2'));
  const vc = await create(t, '/api/dcim/virtual-chassis/', { name: 'stack', master: w.vc1.id });
  assert.equal((await t.call('PATCH', `/api/dcim/devices/${w.vc2.id}/`, { virtual_chassis: vc.id, vc_position: 2 })).status, 200);
  w.vcModule = await mod(w.lineCard, await bay({ parent_device: w.vc2.id }, 'Slot 1'));
});
after(() => t.close());

describe('dcim filters with their own semantics', () => {
  it('child_location_type: locations of the parent type, and of the type itself when nestable', async () => {
    assert.deepEqual(await listed(t, '/api/dcim/locations/?child_location_type=Room'), ['Berlin', 'Paris']);
    assert.deepEqual(await listed(t, `/api/dcim/locations/?child_location_type=${w.floorType.id}`), ['F1', 'F1a', 'Room 1']);
    assert.deepEqual(await listed(t, '/api/dcim/locations/?child_location_type=Site&child_location_type=Room'), ['Berlin', 'EU', 'Paris']);
    assert.deepEqual(await listed(t, '/api/dcim/locations/?child_location_type=Region'), []);
    await refused('/api/dcim/locations/?child_location_type=Nowhere', 'child_location_type');
  });

  it('device of a module: installed in the device at most four modules deep', async () => {
    assert.deepEqual(await listed(t, '/api/dcim/modules/?device=chassis', 'id'), ids(...w.chain.slice(0, 4), w.psuModule));
    assert.deepEqual(await listed(t, `/api/dcim/modules/?device=${w.other.id}&device=vc2`, 'id'), ids(w.otherModule, w.vcModule));
    assert.deepEqual(await listed(t, '/api/dcim/modules/?device=vc1', 'id'), []);
    await refused('/api/dcim/modules/?device=nodevice', 'device');
  });

  it('compatible_with_module_bay of a module type: the types of the family the bay requires, all types for a bay requiring none', async () => {
    assert.deepEqual(await listed(t, `/api/dcim/module-types/?compatible_with_module_bay=${w.psuBay.id}`, 'model'), ['PSU-1']);
    assert.deepEqual(await listed(t, `/api/dcim/module-types/?compatible_with_module_bay=${w.slot.id}`, 'model'), ['LC', 'PSU-1']);
    assert.deepEqual(await listed(t, `/api/dcim/module-types/?compatible_with_module_bay=${w.fanBay.id}`, 'model'), []);
    await refused('/api/dcim/module-types/?compatible_with_module_bay=x', 'compatible_with_module_bay');
  });

  it('compatible_with_module_bay of a module: the modules whose type is of the family the bay requires', async () => {
    assert.deepEqual(await listed(t, `/api/dcim/modules/?compatible_with_module_bay=${w.psuBay.id}`, 'id'), ids(w.psuModule));
    assert.deepEqual(await listed(t, `/api/dcim/modules/?compatible_with_module_bay=${w.slot.id}&limit=0`, 'id'), await listed(t, '/api/dcim/modules/?limit=0', 'id'));
    assert.deepEqual(await listed(t, `/api/dcim/modules/?compatible_with_module_bay=${w.fanBay.id}`, 'id'), []);
    await refused('/api/dcim/modules/?compatible_with_module_bay=00000000-0000-4000-8000-000000000000', 'compatible_with_module_bay');
  });

  it('module_bay_id of a module family: the families the bays require', async () => {
    assert.deepEqual(await listed(t, `/api/dcim/module-families/?module_bay_id=${w.psuBay.id}`), ['PSU']);
    assert.deepEqual(await listed(t, `/api/dcim/module-families/?module_bay_id=${w.psuBay.id}&module_bay_id=${w.fanBay.id}&module_bay_id=${w.slot.id}`), ['FAN', 'PSU']);
    assert.deepEqual(await listed(t, `/api/dcim/module-families/?module_bay_id=${w.slot.id}`), []);
    await refused('/api/dcim/module-families/?module_bay_id=x', 'module_bay_id');
    await refused('/api/dcim/module-families/?module_bay_id=00000000-0000-4000-8000-000000000000', 'module_bay_id');
  });

  it('device_with_common_vc: the interfaces of every chassis member, or of a lone device and its modules', async () => {
    const own = await iface({ device: w.chassis.id }, 'mgmt0');
    const inModule = await iface({ module: w.chain[3].id }, 'et-4');
    await iface({ module: w.chain[4].id }, 'et-5');
    const vc1 = await iface({ device: w.vc1.id }, 'eth0');
    const vc2 = await iface({ device: w.vc2.id }, 'eth0');
    await iface({ module: w.vcModule.id }, 'et-vc');
    await iface({ device: w.other.id }, 'eth0');
    assert.deepEqual(await listed(t, `/api/dcim/interfaces/?device_with_common_vc=${w.chassis.id}`, 'id'), ids(own, inModule));
    // A chassis member's interfaces are those on the member devices, not on their modules (reference VirtualChassis.member_interfaces).
    assert.deepEqual(await listed(t, `/api/dcim/interfaces/?device_with_common_vc=${w.vc2.id}`, 'id'), ids(vc1, vc2));
    assert.deepEqual(await listed(t, '/api/dcim/interfaces/?device_with_common_vc=00000000-0000-4000-8000-000000000000', 'id'), []);
    await refused('/api/dcim/interfaces/?device_with_common_vc=x', 'device_with_common_vc');
  });
});

describe('FK filters to models identified by id alone', () => {
  it('a value that is not an id is the same 400 as any unknown object, never reaching the database', async () => {
    const invalid = (v: string) => [`Select a valid choice. ${v} is not one of the available choices.`];
    const answers: unknown[] = [];
    const expected: unknown[] = [];
    for (const [url, filter, value] of [
      ['/api/dcim/modules/?parent_module_bay=x', 'parent_module_bay', 'x'],
      ['/api/dcim/interfaces/?module=x', 'module', 'x'],
      ['/api/dcim/inventory-items/?parent=not-an-id', 'parent', 'not-an-id'],
      ['/api/dcim/module-bays/?parent_module=12', 'parent_module', '12'],
    ]) {
      const res = await t.call('GET', url);
      answers.push([url, res.status, res.body]);
      expected.push([url, 400, { [filter]: invalid(value) }]);
    }
    assert.deepEqual(answers, expected);
    // Ids still match, and an unknown id mixed with a valid one is refused the same way.
    assert.deepEqual(await listed(t, `/api/dcim/modules/?parent_module_bay=${w.psuBay.id}`, 'id'), ids(w.psuModule));
    const mixed = await t.call('GET', `/api/dcim/modules/?parent_module_bay=${w.psuBay.id}&parent_module_bay=x`);
    assert.equal(mixed.status, 400, mixed.raw);
    assert.deepEqual(mixed.body, { parent_module_bay: invalid('x') });
    // A module bay is named by id alone: its name is not a value of the filter.
    const named = await t.call('GET', '/api/dcim/modules/?parent_module_bay=PSU%20bay');
    assert.equal(named.status, 400, named.raw);
  });
});

describe('choice field filters', () => {
  it('the exact filter takes only the choices; its lookups take any text, as the reference char filters do', async () => {
    await iface({ device: w.other.id }, 'ge-0/0/9');
    const all = await listed(t, '/api/dcim/interfaces/?limit=0', 'id');
    const typed = await listed(t, '/api/dcim/interfaces/?type=1000base-t&limit=0', 'id');
    assert.ok(typed.length > 0);
    assert.deepEqual(await listed(t, '/api/dcim/interfaces/?type__ic=1000BASE&limit=0', 'id'), typed);
    assert.deepEqual(await listed(t, '/api/dcim/interfaces/?type__isw=1000b&limit=0', 'id'), typed);
    assert.deepEqual(await listed(t, '/api/dcim/interfaces/?type__n=bogus&limit=0', 'id'), all);
    assert.deepEqual(await listed(t, '/api/dcim/interfaces/?type__ic=bogus&limit=0', 'id'), []);
    const bad = await t.call('GET', '/api/dcim/interfaces/?type=bogus');
    assert.deepEqual([bad.status, bad.body], [400, { type: ['Select a valid choice. bogus is not one of the available choices.'] }]);
  });
});
