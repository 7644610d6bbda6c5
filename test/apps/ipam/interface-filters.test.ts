import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, listed, makeApp } from '../../helpers/app.js';
import { deviceBody, makeDcimBase } from '../dcim/dcim-setup.js';
import { assertRefused } from '../../helpers/refusals.js';
import type { TestApp } from '../../helpers/app.js';

let t: TestApp;
const o: Record<string, any> = {};

/** Sorted names of a list's results. */
const names = (url: string): Promise<string[]> => listed(t, url);

async function assign(ip: any, iface: { interface?: string; vm_interface?: string }): Promise<void> {
  await create(t, '/api/ipam/ip-address-to-interface/', { ip_address: ip.id, ...iface });
}

before(async () => {
  t = await makeApp();
  const base = await makeDcimBase(t);
  o.v10 = await create(t, '/api/ipam/vlans/', { vid: 10, name: 'ten', status: 'Active' });
  o.v20 = await create(t, '/api/ipam/vlans/', { vid: 20, name: 'twenty', status: 'Active' });
  o.d1 = await create(t, '/api/dcim/devices/', deviceBody(base, 'd1'));
  o.d2 = await create(t, '/api/dcim/devices/', deviceBody(base, 'd2'));
  const iface = (name: string, type: string, extra: Record<string, unknown> = {}) =>
    create(t, '/api/dcim/interfaces/', { device: o.d1.id, name, type, status: 'Active', ...extra });
  o.eth0 = await iface('eth0', '1000base-t', { mode: 'access', untagged_vlan: o.v10.id });
  o.eth1 = await iface('eth1', 'virtual', { mode: 'tagged', tagged_vlans: [o.v20.id] });
  o.wlan0 = await iface('wlan0', 'ieee802.11ac');
  o.eth9 = await create(t, '/api/dcim/interfaces/', { device: o.d2.id, name: 'eth9', type: '10gbase-x-sfpp', status: 'Active', mode: 'tagged', untagged_vlan: o.v20.id, tagged_vlans: [o.v10.id] });
  await create(t, '/api/ipam/prefixes/', { prefix: '10.0.0.0/24', namespace: 'Global', status: 'Active' });
  o.ip1 = await create(t, '/api/ipam/ip-addresses/', { address: '10.0.0.1/24', namespace: 'Global', status: 'Active' });
  o.ip2 = await create(t, '/api/ipam/ip-addresses/', { address: '10.0.0.2/24', namespace: 'Global', status: 'Active' });
  await assign(o.ip1, { interface: o.eth0.id });
  const clusterType = await create(t, '/api/virtualization/cluster-types/', { name: 'KVM' });
  const cluster = await create(t, '/api/virtualization/clusters/', { name: 'c1', cluster_type: clusterType.id });
  o.vm1 = await create(t, '/api/virtualization/virtual-machines/', { name: 'vm1', cluster: cluster.id, status: 'Active' });
  o.vm2 = await create(t, '/api/virtualization/virtual-machines/', { name: 'vm2', cluster: cluster.id, status: 'Active' });
  o.vif0 = await create(t, '/api/virtualization/interfaces/', { virtual_machine: o.vm1.id, name: 'vif0', status: 'Active', mode: 'tagged', tagged_vlans: [o.v20.id] });
  o.vif1 = await create(t, '/api/virtualization/interfaces/', { virtual_machine: o.vm2.id, name: 'vif1', status: 'Active', mode: 'access', untagged_vlan: o.v10.id });
  await assign(o.ip2, { vm_interface: o.vif0.id });
});
after(() => t.close());

describe('devices and virtual machines by their interfaces\' IP addresses', () => {
  it('should match by address or id, any of several values', async () => {
    assert.deepEqual(await names('/api/dcim/devices/?ip_addresses=10.0.0.1/24'), ['d1']);
    assert.deepEqual(await names(`/api/dcim/devices/?ip_addresses=${o.ip1.id}`), ['d1']);
    assert.deepEqual(await names('/api/dcim/devices/?ip_addresses=10.0.0.1/25'), []);
    assert.deepEqual(await names(`/api/virtualization/virtual-machines/?ip_addresses=10.9.9.9&ip_addresses=${o.ip2.id}`), ['vm1']);
    assert.deepEqual(await names('/api/virtualization/virtual-machines/?ip_addresses=10.0.0.1/24'), []);
  });

  it('should split by has_ip_addresses', async () => {
    assert.deepEqual(await names('/api/dcim/devices/?has_ip_addresses=true'), ['d1']);
    assert.deepEqual(await names('/api/dcim/devices/?has_ip_addresses=false'), ['d2']);
    assert.deepEqual(await names('/api/virtualization/virtual-machines/?has_ip_addresses=true'), ['vm1']);
    assert.deepEqual(await names('/api/virtualization/virtual-machines/?has_ip_addresses=false'), ['vm2']);
  });
});

describe('interfaces by addresses and VLANs', () => {
  it('should split interfaces by has_ip_addresses and has_tagged_vlans', async () => {
    assert.deepEqual(await names('/api/dcim/interfaces/?has_ip_addresses=true'), ['eth0']);
    assert.deepEqual(await names('/api/dcim/interfaces/?has_ip_addresses=false'), ['eth1', 'eth9', 'wlan0']);
    assert.deepEqual(await names('/api/dcim/interfaces/?has_tagged_vlans=true'), ['eth1', 'eth9']);
    assert.deepEqual(await names('/api/virtualization/interfaces/?has_tagged_vlans=false'), ['vif1']);
    assert.deepEqual(await names('/api/virtualization/interfaces/?has_ip_addresses=true'), ['vif0']);
  });

  it('should match vlan_id and vlan (VID) against the untagged or any tagged VLAN', async () => {
    assert.deepEqual(await names(`/api/dcim/interfaces/?vlan_id=${o.v10.id}`), ['eth0', 'eth9']);
    assert.deepEqual(await names(`/api/dcim/interfaces/?vlan_id=${o.v20.id}`), ['eth1', 'eth9']);
    assert.deepEqual(await names('/api/dcim/interfaces/?vlan=20'), ['eth1', 'eth9']);
    assert.deepEqual(await names('/api/dcim/interfaces/?vlan=30'), []);
    assert.deepEqual(await names(`/api/virtualization/interfaces/?vlan_id=${o.v10.id}`), ['vif1']);
    const bad = await t.call('GET', '/api/dcim/interfaces/?vlan=ten');
    assertRefused(bad, 400, { vlan: ['Enter a number.'] });
  });

  it('should filter device interfaces by kind', async () => {
    assert.deepEqual(await names('/api/dcim/interfaces/?kind=physical'), ['eth0', 'eth9']);
    assert.deepEqual(await names('/api/dcim/interfaces/?kind=virtual'), ['eth1']);
    assert.deepEqual(await names('/api/dcim/interfaces/?kind=Wireless'), ['wlan0']);
    assert.deepEqual(await names('/api/dcim/interfaces/?kind=other'), []);
  });
});
