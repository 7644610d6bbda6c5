import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildRegistry } from '../../src/apps/index.js';
import { IPAM_DERIVED_FILTERS } from '../../src/apps/ipam/filters/derived.js';
import { derives } from '../../src/apps/shared/derived-filters.js';
import { TENANCY_DERIVED_FILTERS } from '../../src/apps/tenancy/filters.js';
import { create, listed, makeApp } from '../helpers/app.js';
import { deviceBody, makeDcimBase } from './dcim/dcim-setup.js';
import type { TestApp } from '../helpers/app.js';

let t: TestApp;
const o: Record<string, any> = {};

/** Sorted ids of a list's results. */
const ids = (url: string): Promise<string[]> => listed(t, url, 'id');

before(async () => {
  t = await makeApp();
  Object.assign(o, await makeDcimBase(t));
  o.p1 = await create(t, '/api/circuits/providers/', { name: 'P1' });
  o.p2 = await create(t, '/api/circuits/providers/', { name: 'P2' });
  o.net = await create(t, '/api/circuits/provider-networks/', { name: 'backbone', provider: o.p2.id });
  const ctype = await create(t, '/api/circuits/circuit-types/', { name: 'Transit' });
  o.c1 = await create(t, '/api/circuits/circuits/', { cid: 'c1', provider: o.p1.id, circuit_type: ctype.id, status: 'Active' });
  o.c2 = await create(t, '/api/circuits/circuits/', { cid: 'c2', provider: o.p2.id, circuit_type: ctype.id, status: 'Active' });
  await create(t, '/api/circuits/circuit-terminations/', { circuit: o.c1.id, term_side: 'A', location: o.site.id });
  await create(t, '/api/circuits/circuit-terminations/', { circuit: o.c2.id, term_side: 'A', provider_network: o.net.id });
  o.panel1 = await create(t, '/api/dcim/power-panels/', { name: 'PP1', location: o.site.id });
  o.panel2 = await create(t, '/api/dcim/power-panels/', { name: 'PP2', location: o.site.id });
  await create(t, '/api/dcim/power-feeds/', { name: 'F1', power_panel: o.panel1.id, destination_panel: o.panel2.id, status: 'Active' });
  const platform = await create(t, '/api/dcim/platforms/', { name: 'ios' });
  o.v1 = await create(t, '/api/dcim/software-versions/', { platform: platform.id, version: '1.0', status: 'Active' });
  o.v2 = await create(t, '/api/dcim/software-versions/', { platform: platform.id, version: '2.0', status: 'Active' });
  o.img = await create(t, '/api/dcim/software-image-files/', { software_version: o.v1.id, image_file_name: 'ios-1.bin', status: 'Active' });
  o.img2 = await create(t, '/api/dcim/software-image-files/', { software_version: o.v2.id, image_file_name: 'ios-2.bin', status: 'Active' });
  o.type2 = await create(t, '/api/dcim/device-types/', { model: 'Box 2U', manufacturer: o.manufacturer.id, u_height: 2 });
  await create(t, '/api/dcim/device-types-to-software-image-files/', { device_type: o.deviceType.id, software_image_file: o.img.id });
  o.d1 = await create(t, '/api/dcim/devices/', deviceBody(o as any, 'd1', { software_image_files: [o.img.id] }));
  o.d2 = await create(t, '/api/dcim/devices/', deviceBody(o as any, 'd2'));
  o.eth0 = await create(t, '/api/dcim/interfaces/', { device: o.d1.id, name: 'eth0', type: '1000base-t', status: 'Active' });
  o.eth1 = await create(t, '/api/dcim/interfaces/', { device: o.d1.id, name: 'eth1', type: '1000base-t', status: 'Active' });
  o.vdc1 = await create(t, '/api/dcim/virtual-device-contexts/', { name: 'vdc1', device: o.d1.id, status: 'Active' });
  o.vdc2 = await create(t, '/api/dcim/virtual-device-contexts/', { name: 'vdc2', device: o.d1.id, status: 'Active' });
  await create(t, '/api/dcim/interface-vdc-assignments/', { virtual_device_context: o.vdc1.id, interface: o.eth0.id });
});
after(() => t.close());

describe('derived filter tables of IPAM and tenancy', () => {
  it('should derive every declared entry from the registry', () => {
    const registry = buildRegistry();
    for (const table of [IPAM_DERIVED_FILTERS, TENANCY_DERIVED_FILTERS]) {
      for (const [model, entries] of Object.entries(table)) for (const entry of entries) assert.ok(derives(registry, model, entry), `${model} ${entry}`);
    }
  });
});

describe('circuits and providers by termination', () => {
  it('should match circuits by their terminations\' location (with descendants) and provider network', async () => {
    assert.deepEqual(await ids(`/api/circuits/circuits/?location=${o.site.id}`), [o.c1.id]);
    assert.deepEqual(await ids('/api/circuits/circuits/?location=EU'), [o.c1.id]);
    assert.deepEqual(await ids('/api/circuits/circuits/?location=Paris'), []);
    assert.deepEqual(await ids('/api/circuits/circuits/?provider_network=backbone'), [o.c2.id]);
  });

  it('should match providers through their circuits\' terminations', async () => {
    assert.deepEqual(await ids('/api/circuits/providers/?location=EU'), [o.p1.id]);
    const bad = await t.call('GET', '/api/circuits/providers/?location=Atlantis');
    assert.equal(bad.status, 400);
    assert.match(bad.body.location[0], /^Select a valid choice/);
  });
});

describe('power panels feeding others', () => {
  it('should split panels by has_feeders (feeds whose destination they are)', async () => {
    assert.deepEqual(await ids('/api/dcim/power-panels/?has_feeders=true'), [o.panel2.id]);
    assert.deepEqual(await ids('/api/dcim/power-panels/?has_feeders=false'), [o.panel1.id]);
    assert.deepEqual(await ids('/api/dcim/power-panels/?has_power_feeds=true'), [o.panel1.id]);
  });
});

describe('device types and software image files', () => {
  it('should relate device types, image files and versions through the mapping', async () => {
    assert.deepEqual(await ids('/api/dcim/device-types/?has_software_image_files=true'), [o.deviceType.id]);
    assert.deepEqual(await ids('/api/dcim/device-types/?has_software_image_files=false'), [o.type2.id]);
    assert.deepEqual(await ids(`/api/dcim/software-image-files/?device_types=${o.deviceType.id}`), [o.img.id]);
    assert.deepEqual(await ids('/api/dcim/software-image-files/?has_device_types=false'), [o.img2.id]);
    assert.deepEqual(await ids(`/api/dcim/software-versions/?device_types=${o.deviceType.id}`), [o.v1.id]);
  });
});

describe('devices by image files, and virtual device contexts by interfaces', () => {
  it('should split devices by has_software_image_files', async () => {
    assert.deepEqual(await ids('/api/dcim/devices/?has_software_image_files=true'), [o.d1.id]);
    assert.deepEqual(await ids('/api/dcim/devices/?has_software_image_files=false'), [o.d2.id]);
  });

  it('should relate interfaces and virtual device contexts through their assignments', async () => {
    assert.deepEqual(await ids('/api/dcim/virtual-device-contexts/?has_interfaces=true'), [o.vdc1.id]);
    assert.deepEqual(await ids('/api/dcim/virtual-device-contexts/?has_interfaces=false'), [o.vdc2.id]);
    assert.deepEqual(await ids(`/api/dcim/interfaces/?virtual_device_contexts=${o.vdc1.id}`), [o.eth0.id]);
    assert.deepEqual(await ids('/api/dcim/interfaces/?has_virtual_device_contexts=false'), [o.eth1.id]);
  });
});

describe('modules, pass-through ports, redundancy groups and VM image files', () => {
  before(async () => {
    o.bay1 = await create(t, '/api/dcim/module-bays/', { parent_device: o.d1.id, name: 'slot1' });
    await create(t, '/api/dcim/module-bays/', { parent_device: o.d2.id, name: 'slot1' });
    const moduleType = await create(t, '/api/dcim/module-types/', { manufacturer: o.manufacturer.id, model: 'LC-1' });
    o.module = await create(t, '/api/dcim/modules/', { module_type: moduleType.id, parent_module_bay: o.bay1.id, status: 'Active' });
    const rear = await create(t, '/api/dcim/rear-port-templates/', { device_type: o.type2.id, name: 'r1', type: '8p8c', positions: 1 });
    await create(t, '/api/dcim/front-port-templates/', { device_type: o.type2.id, name: 'f1', type: '8p8c', rear_port_template: rear.id, rear_port_position: 1 });
    o.group = await create(t, '/api/dcim/interface-redundancy-groups/', { name: 'hsrp1', status: 'Active', protocol: 'hsrp' });
    await create(t, '/api/dcim/interface-redundancy-group-associations/', { interface_redundancy_group: o.group.id, interface: o.eth1.id, priority: 100 });
    const clusterType = await create(t, '/api/virtualization/cluster-types/', { name: 'KVM' });
    const cluster = await create(t, '/api/virtualization/clusters/', { name: 'c1', cluster_type: clusterType.id });
    o.vm1 = await create(t, '/api/virtualization/virtual-machines/', { name: 'vm1', cluster: cluster.id, status: 'Active', software_image_files: [o.img2.id] });
    o.vm2 = await create(t, '/api/virtualization/virtual-machines/', { name: 'vm2', cluster: cluster.id, status: 'Active' });
  });

  it('should split devices and modules by has_modules (a module installed in one of their bays)', async () => {
    assert.deepEqual(await ids('/api/dcim/devices/?has_modules=true'), [o.d1.id]);
    assert.deepEqual(await ids('/api/dcim/devices/?has_modules=false'), [o.d2.id]);
    assert.deepEqual(await ids('/api/dcim/modules/?has_modules=false'), [o.module.id]);
    assert.deepEqual(await ids('/api/dcim/modules/?has_modules=true'), []);
  });

  it('should split devices by has_empty_module_bays (a bay with no module)', async () => {
    const bay2 = await create(t, '/api/dcim/module-bays/', { parent_device: o.d1.id, name: 'slot2' });
    assert.deepEqual(await ids('/api/dcim/devices/?has_empty_module_bays=true'), [o.d1.id, o.d2.id].sort());
    assert.equal((await t.call('DELETE', `/api/dcim/module-bays/${bay2.id}/`)).status, 204);
    assert.deepEqual(await ids('/api/dcim/devices/?has_empty_module_bays=true'), [o.d2.id]);
    assert.deepEqual(await ids('/api/dcim/devices/?has_empty_module_bays=false'), [o.d1.id]);
    assert.deepEqual(await ids('/api/dcim/modules/?has_empty_module_bays=false'), [o.module.id]);
  });

  it('should match rack groups at the given locations or their ancestors', async () => {
    const top = await create(t, '/api/dcim/rack-groups/', { name: 'eu-row', location: o.region.id });
    const mid = await create(t, '/api/dcim/rack-groups/', { name: 'berlin-row', location: o.site.id });
    await create(t, '/api/dcim/rack-groups/', { name: 'paris-row', location: o.site2.id });
    assert.deepEqual(await ids('/api/dcim/rack-groups/?ancestors=Berlin'), [top.id, mid.id].sort());
    assert.deepEqual(await ids(`/api/dcim/rack-groups/?ancestors=${o.region.id}`), [top.id]);
    const bad = await t.call('GET', '/api/dcim/rack-groups/?ancestors=Atlantis');
    assert.equal(bad.status, 400);
    assert.match(bad.body.ancestors[0], /^Select a valid choice/);
  });

  it('should split device types by pass_through_ports (front port templates)', async () => {
    assert.deepEqual(await ids('/api/dcim/device-types/?pass_through_ports=true'), [o.type2.id]);
    assert.deepEqual(await ids('/api/dcim/device-types/?pass_through_ports=false'), [o.deviceType.id]);
  });

  it('should match interfaces by redundancy group, and VMs by has_software_image_files', async () => {
    assert.deepEqual(await ids('/api/dcim/interfaces/?interface_redundancy_groups=hsrp1'), [o.eth1.id]);
    assert.deepEqual(await ids('/api/virtualization/virtual-machines/?has_software_image_files=true'), [o.vm1.id]);
    assert.deepEqual(await ids('/api/virtualization/virtual-machines/?has_software_image_files=false'), [o.vm2.id]);
  });
});

describe('locations by the content types their type allows', () => {
  it('should match locations whose location type allows the content type', async () => {
    assert.deepEqual(await ids('/api/dcim/locations/?content_type=dcim.device'), [o.region.id, o.site.id, o.site2.id].sort());
    assert.deepEqual(await ids('/api/dcim/locations/?content_type=dcim.device&content_type__n=ipam.vlan'), []);
  });
});

describe('FK filter values: an id or a name, never both', () => {
  it('should look a UUID-shaped value up as an id only, as the reference (not as a name)', async () => {
    const odd = '0b6c5d2e-1111-4222-8333-944455556666';
    await create(t, '/api/circuits/providers/', { name: odd });
    const res = await t.call('GET', `/api/circuits/circuits/?provider=${odd}`);
    assert.equal(res.status, 400, res.raw);
    assert.deepEqual(await ids(`/api/circuits/circuits/?provider=P1&provider=${o.p2.id}`), [o.c1.id, o.c2.id].sort());
  });
});
