import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import { deviceBody, makeDcimBase } from './dcim-setup.js';
import { assertRefused, countOf } from '../../helpers/refusals.js';
import type { TestApp } from '../../helpers/app.js';
import type { DcimBase } from './dcim-setup.js';

let t: TestApp;
let base: DcimBase;
let d1: any;
let d2: any;
let lag: any;

before(async () => {
  t = await makeApp();
  base = await makeDcimBase(t);
  [d1, d2] = await create(t, '/api/dcim/devices/', [deviceBody(base, 'd1'), deviceBody(base, 'd2')]);
  lag = await create(t, '/api/dcim/interfaces/', { device: d1.id, name: 'ae0', type: 'lag', status: 'Active' });
});
after(() => t.close());

const iface = (device: any, name: string, extra: Record<string, unknown> = {}) => t.call('POST', '/api/dcim/interfaces/', { device: device.id, name, type: '1000base-t', status: 'Active', ...extra });

describe('interfaces on the same device or chassis', () => {
  it('should refuse a LAG on another device, a non-LAG, itself, and a LAG on a virtual interface', async () => {
    assertRefused(await iface(d2, 'x', { lag: lag.id }), 400, { lag: ['The selected LAG interface (ae0) belongs to a different device (d1).'] }, 'other device');
    const plain = (await iface(d1, 'ge0')).body;
    assertRefused(await iface(d1, 'y', { lag: plain.id }), 400, { lag: ['The selected interface (ge0) is not a LAG interface.'] }, 'not a LAG');
    assertRefused(await t.call('PATCH', `/api/dcim/interfaces/${lag.id}/`, { lag: lag.id }), 400, { lag: ['A LAG interface cannot be its own parent.'] }, 'itself');
    assertRefused(await iface(d1, 'v', { type: 'virtual', lag: lag.id }), 400, { lag: ['Virtual interfaces cannot have a parent LAG interface.'] }, 'virtual');
    assert.equal((await iface(d1, 'ge1', { lag: lag.id })).status, 201);
  });

  it('should accept a LAG on another member of the same virtual chassis', async () => {
    const vc = await create(t, '/api/dcim/virtual-chassis/', { name: 'vc', master: d1.id });
    assert.equal((await t.call('PATCH', `/api/dcim/devices/${d2.id}/`, { virtual_chassis: vc.id, vc_position: 2 })).status, 200);
    assert.equal((await iface(d2, 'ge9', { lag: lag.id })).status, 201);
  });

  it('should allow a parent interface only on virtual interfaces of the same device', async () => {
    const parent = (await iface(d1, 'ge2')).body;
    const physical = await iface(d1, 'ge3', { parent_interface: parent.id });
    assertRefused(physical, 400, { parent_interface: ['Only virtual interfaces may be assigned to a parent interface.'] });
    assert.equal((await iface(d1, 'ge2.10', { type: 'virtual', parent_interface: parent.id })).status, 201);
    const lone = await create(t, '/api/dcim/devices/', deviceBody(base, 'lone'));
    assertRefused(await iface(lone, 'v1', { type: 'virtual', parent_interface: parent.id }), 400, { parent_interface: ['The selected parent interface (ge2) belongs to a different device (d1).'] });
  });

  it('should refuse a bridge on another device or the interface itself', async () => {
    const lone = (await t.call('GET', '/api/dcim/devices/?name=lone')).body.results[0];
    const br = (await iface(d1, 'br0', { type: 'bridge' })).body;
    assertRefused(await iface(lone, 'ge0', { bridge: br.id }), 400, { bridge: ['The selected bridge interface (br0) belongs to a different device (d1).'] });
    assertRefused(await t.call('PATCH', `/api/dcim/interfaces/${br.id}/`, { bridge: br.id }), 400, { bridge: ['An interface cannot be bridged to itself.'] });
  });

  it('should refuse speed and duplex on virtual types and duplex on non-copper types', async () => {
    const res = await iface(d1, 'ae9', { type: 'lag', speed: 1000000, duplex: 'full' });
    assertRefused(res, 400, { speed: ['Speed is not applicable to lag interfaces.'], duplex: ['Duplex is not applicable to lag interfaces.'] });
    assertRefused(await iface(d1, 'xe0', { type: '10gbase-x-sfpp', duplex: 'full' }), 400, { duplex: ['Duplex is only applicable to copper twisted-pair interfaces, not 10gbase-x-sfpp.'] });
    assert.equal((await iface(d1, 'ge7', { speed: 1000000, duplex: 'full' })).status, 201);
  });

  it('should refuse a VRF not assigned to the interface device', async () => {
    const vrf = await create(t, '/api/ipam/vrfs/', { name: 'blue' });
    assertRefused(await iface(d1, 'vrf0', { vrf: vrf.id }), 400, { vrf: ["VRF blue is not assigned to the interface's device (d1)."] });
    await create(t, '/api/ipam/vrf-device-assignments/', { vrf: vrf.id, device: d1.id });
    assert.equal((await iface(d1, 'vrf0', { vrf: vrf.id })).status, 201);
  });

  it('should require one of device or module', async () => {
    const res = await t.call('POST', '/api/dcim/console-ports/', { name: 'con' });
    assertRefused(res, 400, { __all__: ['Either device or module must be set'] });
  });
});

describe('interface VLANs', () => {
  let parisVlan: any;
  let euVlan: any;
  let globalVlan: any;
  before(async () => {
    [parisVlan, euVlan, globalVlan] = await create(t, '/api/ipam/vlans/', [
      { vid: 10, name: 'paris', status: 'Active', location: base.site2.id },
      { vid: 20, name: 'eu', status: 'Active', location: base.region.id },
      { vid: 30, name: 'global', status: 'Active' },
    ]);
  });

  it('should require a mode for an untagged VLAN and mode tagged for tagged VLANs', async () => {
    assertRefused(await iface(d1, 'm1', { untagged_vlan: globalVlan.id }), 400, { untagged_vlan: ['Mode must be set when specifying untagged_vlan'] });
    assertRefused(await iface(d1, 'm2', { mode: 'access', tagged_vlans: [globalVlan.id] }), 400, { tagged_vlans: ['Mode must be set to tagged when specifying tagged_vlans'] });
  });

  it('should accept VLANs that are global or at an ancestor location, and refuse others', async () => {
    assertRefused(await iface(d1, 'm3', { mode: 'access', untagged_vlan: parisVlan.id }), 400, { untagged_vlan: ["The untagged VLAN must be global or available at the location of the interface's parent (or one of its ancestors)."] });
    assertRefused(await iface(d1, 'm4', { mode: 'tagged', tagged_vlans: [parisVlan.id] }), 400, { tagged_vlans: [`VLAN ${parisVlan.id} must be global or available at the location of the interface's parent (or one of its ancestors).`] });
    assert.equal(await countOf(t, `/api/dcim/interfaces/?device=${d1.id}&name=m3&name=m4`), 0, 'no refused interface is written');
    const ok = await iface(d1, 'm5', { mode: 'tagged', untagged_vlan: euVlan.id, tagged_vlans: [euVlan.id, globalVlan.id] });
    assert.equal(ok.status, 201, ok.raw);
  });

  it('should refuse leaving mode tagged while tagged VLANs remain, unless they are cleared', async () => {
    const m5 = (await t.call('GET', `/api/dcim/interfaces/?device=${d1.id}&name=m5`)).body.results[0];
    const res = await t.call('PATCH', `/api/dcim/interfaces/${m5.id}/`, { mode: 'access' });
    assertRefused(res, 400, { tagged_vlans: ['Clear tagged_vlans to set mode to access'] });
    const cleared = await t.call('PATCH', `/api/dcim/interfaces/${m5.id}/`, { mode: 'access', tagged_vlans: [] });
    assert.equal(cleared.status, 200, cleared.raw);
    assert.deepEqual(cleared.body.tagged_vlans, []);
  });
});

describe('ports and templates', () => {
  it('should keep front ports on their own device and within the rear port positions', async () => {
    const rear = await create(t, '/api/dcim/rear-ports/', { device: d1.id, name: 'r0', type: 'lc', positions: 2 });
    const far = await t.call('POST', '/api/dcim/front-ports/', { device: d2.id, name: 'f0', type: 'lc', rear_port: rear.id });
    assertRefused(far, 400, { rear_port: ['Parent rear port (r0) must belong to the same device'] });
    const high = await t.call('POST', '/api/dcim/front-ports/', { device: d1.id, name: 'f0', type: 'lc', rear_port: rear.id, rear_port_position: 3 });
    assertRefused(high, 400, { rear_port_position: ['Invalid rear port position (3); rear port r0 has only 2 positions'] });
    await create(t, '/api/dcim/front-ports/', [1, 2].map((p) => ({ device: d1.id, name: `f${p}`, type: 'lc', rear_port: rear.id, rear_port_position: p })));
    const shrink = await t.call('PATCH', `/api/dcim/rear-ports/${rear.id}/`, { positions: 1 });
    assertRefused(shrink, 400, { positions: ['The number of positions cannot be less than the number of mapped front ports (2)'] });
  });

  it('should keep a power outlet on the device of its power port, within the maximum draw', async () => {
    const psu = await create(t, '/api/dcim/power-ports/', { device: d1.id, name: 'psu' });
    assertRefused(await t.call('POST', '/api/dcim/power-outlets/', { device: d2.id, name: 'o', power_port: psu.id }), 400, { power_port: ['Parent power port (psu) must belong to the same device'] });
    assertRefused(await t.call('POST', '/api/dcim/power-ports/', { device: d1.id, name: 'psu2', maximum_draw: 100, allocated_draw: 200 }), 400, { allocated_draw: ['Allocated draw cannot exceed the maximum draw (100W).'] });
  });

  it('should check templates: one owner, rear port position, same type, device bays only on parent types', async () => {
    const dt = base.deviceType.id;
    const both = await t.call('POST', '/api/dcim/console-port-templates/', { name: 'c' });
    assertRefused(both, 400, { __all__: ['Either device_type or module_type must be set'] });
    const rear = await create(t, '/api/dcim/rear-port-templates/', { device_type: dt, name: 'rt', type: 'lc', positions: 1 });
    assertRefused(await t.call('POST', '/api/dcim/front-port-templates/', { device_type: dt, name: 'ft', type: 'lc', rear_port_template: rear.id, rear_port_position: 2 }), 400, { rear_port_position: ['Invalid rear port position (2); rear port rt has only 1 positions'] });
    const other = await create(t, '/api/dcim/device-types/', { model: 'Other', manufacturer: base.manufacturer.id });
    assertRefused(await t.call('POST', '/api/dcim/front-port-templates/', { device_type: other.id, name: 'ft', type: 'lc', rear_port_template: rear.id }), 400, { rear_port_template: ['Parent rear port (rt) must belong to the same device type or module type'] });
    assertRefused(await t.call('POST', '/api/dcim/device-bay-templates/', { device_type: dt, name: 'bay' }), 400, { device_type: ['Subdevice role of device type (Box 1U) must be set to "parent" to allow device bays.'] });
    assertRefused(await t.call('POST', '/api/dcim/interface-templates/', { device_type: dt, name: 'v', type: 'virtual', speed: 1000 }), 400, { speed: ['Speed is not applicable to virtual interfaces.'] });
    const psu = await create(t, '/api/dcim/power-port-templates/', { device_type: other.id, name: 'psu' });
    assertRefused(await t.call('POST', '/api/dcim/power-outlet-templates/', { device_type: dt, name: 'o', power_port_template: psu.id }), 400, { power_port_template: ['Parent power port (psu) must belong to the same device type or module type'] });
    assertRefused(await t.call('POST', '/api/dcim/power-port-templates/', { device_type: dt, name: 'p', maximum_draw: 10, allocated_draw: 20 }), 400, { allocated_draw: ['Allocated draw cannot exceed the maximum draw (10W).'] });
  });

  it('should keep a parent type with bay templates a parent, and child types 0U', async () => {
    const parent = await create(t, '/api/dcim/device-types/', { model: 'Enclosure', manufacturer: base.manufacturer.id, subdevice_role: 'parent' });
    await create(t, '/api/dcim/device-bay-templates/', { device_type: parent.id, name: 'bay' });
    assertRefused(await t.call('PATCH', `/api/dcim/device-types/${parent.id}/`, { subdevice_role: '' }), 400, { subdevice_role: ['Must delete all device bay templates associated with this device before declassifying it as a parent device.'] });
    assertRefused(await t.call('POST', '/api/dcim/device-types/', { model: 'Tall child', manufacturer: base.manufacturer.id, subdevice_role: 'child', u_height: 1 }), 400, { u_height: ['Child device types must be 0U.'] });
  });

  it('should give a virtual device context only interfaces of its device', async () => {
    const vdc = await create(t, '/api/dcim/virtual-device-contexts/', { name: 'ctx', device: d1.id, status: 'Active' });
    const lone = (await t.call('GET', '/api/dcim/devices/?name=lone')).body.results[0];
    const foreign = await create(t, '/api/dcim/interfaces/', { device: lone.id, name: 'vdc0', type: '1000base-t', status: 'Active' });
    const res = await t.call('POST', '/api/dcim/interface-vdc-assignments/', { virtual_device_context: vdc.id, interface: foreign.id });
    assertRefused(res, 400, { interface: ['Interface vdc0 does not belong to the device of virtual device context ctx or to its virtual chassis.'] });
    assert.equal((await t.call('POST', '/api/dcim/interface-vdc-assignments/', { virtual_device_context: vdc.id, interface: lag.id })).status, 201);
  });
});
