import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import { deviceBody, makeDcimBase } from './dcim-setup.js';
import { assertRefused } from '../../helpers/refusals.js';
import type { TestApp } from '../../helpers/app.js';
import type { DcimBase } from './dcim-setup.js';

let t: TestApp;
let base: DcimBase;

before(async () => {
  t = await makeApp();
  base = await makeDcimBase(t);
});
after(() => t.close());

const post = (name: string, extra: Record<string, unknown> = {}) => t.call('POST', '/api/dcim/devices/', deviceBody(base, name, extra));
const patch = (path: string, id: string, body: unknown) => t.call('PATCH', `/api/dcim/${path}/${id}/`, body);

describe('device relations', () => {
  it('should refuse a platform limited to another manufacturer', async () => {
    const other = await create(t, '/api/dcim/manufacturers/', { name: 'Other' });
    const platform = await create(t, '/api/dcim/platforms/', { name: 'other-os', manufacturer: other.id });
    const res = await post('plat', { platform: platform.id });
    assertRefused(res, 400, { platform: ["The assigned platform is limited to Other device types, but this device's type belongs to Acme."] });
  });

  it('should refuse a cluster at a location that does not include the device location', async () => {
    const type = await create(t, '/api/virtualization/cluster-types/', { name: 'vSphere' });
    const far = await create(t, '/api/virtualization/clusters/', { name: 'paris-cl', cluster_type: type.id, location: base.site2.id });
    const res = await post('host', { cluster: far.id });
    assertRefused(res, 400, { cluster: ["The assigned cluster belongs to a location that does not include this device's location (Berlin)."] });
    const wide = await create(t, '/api/virtualization/clusters/', { name: 'eu-cl', cluster_type: type.id, location: base.region.id });
    assert.equal((await post('host', { cluster: wide.id })).status, 201);
  });

  it('should require a redundancy group for a redundancy priority', async () => {
    const res = await post('drg', { device_redundancy_group_priority: 1 });
    assertRefused(res, 400, { device_redundancy_group: ['Must assign a redundancy group when defining a redundancy group priority.'] });
  });

  it('should refuse a duplicate name at a location when neither has a tenant, and allow unnamed devices', async () => {
    assert.equal((await post('twin')).status, 201);
    const dup = await post('twin');
    assert.equal(dup.status, 400);
    assert.deepEqual(dup.body, { name: ['A device with this name already exists.'] });
    const pair = await t.call('POST', '/api/dcim/devices/', [deviceBody(base, 'pair'), deviceBody(base, 'pair')]);
    assertRefused(pair, 400, [{}, { name: ['A device with this name already exists.'] }]);
    assert.equal((await post(null as unknown as string)).status, 201);
    assert.equal((await post(null as unknown as string)).status, 201);
  });
});

describe('virtual chassis', () => {
  it('should make the master a member at position 1 when the chassis is created', async () => {
    const master = await create(t, '/api/dcim/devices/', deviceBody(base, 'vc-a'));
    const vc = await create(t, '/api/dcim/virtual-chassis/', { name: 'vc1', master: master.id });
    const got = (await t.call('GET', `/api/dcim/devices/${master.id}/`)).body;
    assert.equal(got.virtual_chassis.id, vc.id);
    assert.equal(got.vc_position, 1);
  });

  it('should require a position for members and keep positions unique', async () => {
    const vc = (await t.call('GET', '/api/dcim/virtual-chassis/?name=vc1')).body.results[0];
    const noPos = await post('vc-b', { virtual_chassis: vc.id });
    assertRefused(noPos, 400, { vc_position: ['A device assigned to a virtual chassis must have its position defined.'] });
    const taken = await post('vc-b', { virtual_chassis: vc.id, vc_position: 1 });
    assertRefused(taken, 400, { non_field_errors: ['The fields virtual_chassis, vc_position must make a unique set.'] });
    assert.equal((await post('vc-b', { virtual_chassis: vc.id, vc_position: 2 })).status, 201);
  });

  it('should refuse to remove the master from its chassis, and a master that is not a member', async () => {
    const vc = (await t.call('GET', '/api/dcim/virtual-chassis/?name=vc1')).body.results[0];
    const res = await patch('devices', vc.master.id, { virtual_chassis: null, vc_position: null });
    assertRefused(res, 400, { virtual_chassis: ['The master device for the virtual chassis (vc1) may not be removed from it.'] });
    const outsider = await create(t, '/api/dcim/devices/', deviceBody(base, 'outsider'));
    const bad = await patch('virtual-chassis', vc.id, { master: outsider.id });
    assertRefused(bad, 400, { master: ['The selected master (outsider) is not assigned to this virtual chassis.'] });
  });

  it('should clear member positions when the chassis is deleted', async () => {
    const member = await create(t, '/api/dcim/devices/', deviceBody(base, 'vc-x'));
    const vc = await create(t, '/api/dcim/virtual-chassis/', { name: 'vc-gone' });
    assert.equal((await patch('devices', member.id, { virtual_chassis: vc.id, vc_position: 3, vc_priority: 10 })).status, 200);
    assert.equal((await t.call('DELETE', `/api/dcim/virtual-chassis/${vc.id}/`)).status, 204);
    const got = (await t.call('GET', `/api/dcim/devices/${member.id}/`)).body;
    assert.deepEqual([got.virtual_chassis, got.vc_position, got.vc_priority], [null, null, null]);
  });
});

describe('device bays', () => {
  let chassis: any;
  let blade: any;
  before(async () => {
    const parentType = await create(t, '/api/dcim/device-types/', { model: 'Chassis', manufacturer: base.manufacturer.id, subdevice_role: 'parent', u_height: 2 });
    blade = await create(t, '/api/dcim/device-types/', { model: 'Blade', manufacturer: base.manufacturer.id, subdevice_role: 'child', u_height: 0 });
    await create(t, '/api/dcim/device-bay-templates/', [{ device_type: parentType.id, name: 'b1' }, { device_type: parentType.id, name: 'b2' }]);
    chassis = await create(t, '/api/dcim/devices/', deviceBody(base, 'chassis', { device_type: parentType.id }));
  });
  const bay = async (name: string) => (await t.call('GET', `/api/dcim/device-bays/?device=${chassis.id}&name=${name}`)).body.results[0];

  it('should install a child through parent_bay and mirror it on the bay', async () => {
    const b1 = await bay('b1');
    const child = await create(t, '/api/dcim/devices/', deviceBody(base, 'blade1', { device_type: blade.id, parent_bay: b1.id }));
    assert.equal(child.parent_bay.id, b1.id);
    assert.equal((await bay('b1')).installed_device.id, child.id);
  });

  it('should refuse an occupied bay, a non-child device and a bay on a non-parent type', async () => {
    const b1 = await bay('b1');
    const taken = await post('blade2', { device_type: blade.id, parent_bay: b1.id });
    assertRefused(taken, 400, { parent_bay: ['Cannot install the device; bay b1 already holds another device.'] });
    const plain = await create(t, '/api/dcim/devices/', deviceBody(base, 'plain'));
    const wrong = await patch('device-bays', (await bay('b2')).id, { installed_device: plain.id });
    assertRefused(wrong, 400, { installed_device: [`Cannot install device "plain"; device-type "Box 1U" has no subdevice role, or isn't a child type.`] });
    const noBays = await t.call('POST', '/api/dcim/device-bays/', { device: plain.id, name: 'x' });
    assertRefused(noBays, 400, { device: ['This type of device (Box 1U) does not support device bays.'] });
  });

  it('should move installed children with their parent', async () => {
    const res = await patch('devices', chassis.id, { rack: base.rack.id, face: 'front', position: 3 });
    assert.equal(res.status, 200, res.raw);
    const child = (await t.call('GET', '/api/dcim/devices/?name=blade1')).body.results[0];
    assert.equal(child.rack.id, base.rack.id);
    assert.equal(child.position, null);
  });
});

describe('deletes and linked updates', () => {
  it('should refuse deleting a chassis whose members form a cross-chassis LAG (409)', async () => {
    const [a, b] = await create(t, '/api/dcim/devices/', [deviceBody(base, 'lag-a'), deviceBody(base, 'lag-b')]);
    const vc = await create(t, '/api/dcim/virtual-chassis/', { name: 'vc-lag', master: a.id });
    assert.equal((await patch('devices', b.id, { virtual_chassis: vc.id, vc_position: 2 })).status, 200);
    const ae = await create(t, '/api/dcim/interfaces/', { device: a.id, name: 'ae0', type: 'lag', status: 'Active' });
    const ge0 = await create(t, '/api/dcim/interfaces/', { device: b.id, name: 'ge0', type: '1000base-t', status: 'Active', lag: ae.id });
    const res = await t.call('DELETE', `/api/dcim/virtual-chassis/${vc.id}/`);
    assertRefused(res, 409, { detail: `Unable to delete virtual chassis. There are member interfaces which form a cross-chassis LAG: ge0 (${ge0.id})` });
    assert.equal((await t.call('GET', `/api/dcim/devices/${b.id}/`)).body.vc_position, 2);
  });

  it('should clear redundancy priorities when the redundancy group is deleted', async () => {
    const group = await create(t, '/api/dcim/device-redundancy-groups/', { name: 'drg', status: 'Active' });
    const member = await create(t, '/api/dcim/devices/', deviceBody(base, 'drg-member', { device_redundancy_group: group.id, device_redundancy_group_priority: 5 }));
    assert.equal((await t.call('DELETE', `/api/dcim/device-redundancy-groups/${group.id}/`)).status, 204);
    const got = (await t.call('GET', `/api/dcim/devices/${member.id}/`)).body;
    assert.deepEqual([got.device_redundancy_group, got.device_redundancy_group_priority], [null, null]);
  });

  it('should give descendant managed groups the controller of their root', async () => {
    const [c1, c2] = await create(t, '/api/dcim/controllers/', [1, 2].map((i) => ({ name: `ctl${i}`, location: base.site.id, status: 'Active' })));
    const root = await create(t, '/api/dcim/controller-managed-device-groups/', { name: 'root', controller: c1.id });
    const leaf = await create(t, '/api/dcim/controller-managed-device-groups/', { name: 'leaf', controller: c1.id, parent: root.id });
    const stray = await t.call('POST', '/api/dcim/controller-managed-device-groups/', { name: 'stray', controller: c2.id, parent: root.id });
    assertRefused(stray, 400, { controller: ["Controller must match the parent group's controller (ctl1)."] });
    assert.equal((await patch('controller-managed-device-groups', root.id, { controller: c2.id })).status, 200);
    assert.equal((await t.call('GET', `/api/dcim/controller-managed-device-groups/${leaf.id}/`)).body.controller.id, c2.id);
    const host = await create(t, '/api/dcim/devices/', deviceBody(base, 'ctl-host'));
    const drg = await create(t, '/api/dcim/device-redundancy-groups/', { name: 'ctl-drg', status: 'Active' });
    const both = await t.call('POST', '/api/dcim/controllers/', { name: 'ctl3', location: base.site.id, status: 'Active', controller_device: host.id, controller_device_redundancy_group: drg.id });
    assertRefused(both, 400, { controller_device: ['Cannot assign both a device and a device redundancy group to a controller.'] });
  });

  it('should accept only default images or images linked to the device type', async () => {
    const platform = await create(t, '/api/dcim/platforms/', { name: 'eos' });
    const version = await create(t, '/api/dcim/software-versions/', { platform: platform.id, version: '4.30', status: 'Active' });
    const [plain, fallback] = await create(t, '/api/dcim/software-image-files/', [
      { software_version: version.id, image_file_name: 'plain.swi', status: 'Active' },
      { software_version: version.id, image_file_name: 'default.swi', status: 'Active', default_image: true },
    ]);
    const bad = await post('img', { software_image_files: [plain.id] });
    assertRefused(bad, 400, { software_image_files: ["Software image file plain.swi is neither a default image nor linked to this device's type."] });
    assert.equal((await post('img', { software_image_files: [fallback.id] })).status, 201);
  });
});
