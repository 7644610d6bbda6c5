import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import { deviceBody, makeDcimBase } from './dcim-setup.js';
import { assertRefused } from '../../helpers/refusals.js';
import type { TestApp } from '../../helpers/app.js';
import type { DcimBase } from './dcim-setup.js';

let t: TestApp;
let base: DcimBase;
let device: any;
let iface: any;
let v4: any;
let v6: any;
let loose: any;

before(async () => {
  t = await makeApp();
  base = await makeDcimBase(t);
  device = await create(t, '/api/dcim/devices/', deviceBody(base, 'r1'));
  iface = await create(t, '/api/dcim/interfaces/', { device: device.id, name: 'eth0', type: '1000base-t', status: 'Active' });
  await create(t, '/api/ipam/prefixes/', [{ prefix: '10.0.0.0/24', status: 'Active', namespace: 'Global' }, { prefix: '2001:db8::/64', status: 'Active', namespace: 'Global' }]);
  [v4, v6, loose] = await create(t, '/api/ipam/ip-addresses/', [
    { address: '10.0.0.1/24', status: 'Active', namespace: 'Global' }, { address: '2001:db8::1/64', status: 'Active', namespace: 'Global' }, { address: '10.0.0.9/24', status: 'Active', namespace: 'Global' },
  ]);
  await create(t, '/api/ipam/ip-address-to-interface/', [{ ip_address: v4.id, interface: iface.id }, { ip_address: v6.id, interface: iface.id }]);
});
after(() => t.close());

const patchDevice = (body: unknown) => t.call('PATCH', `/api/dcim/devices/${device.id}/`, body);

describe('device primary IPs', () => {
  it('should refuse an address of the other family', async () => {
    const res = await patchDevice({ primary_ip4: v6.id, primary_ip6: v4.id });
    assertRefused(res, 400, { primary_ip4: ['2001:db8::1/64 is not an IPv4 address.'], primary_ip6: ['10.0.0.1/24 is not an IPv6 address.'] });
  });

  it('should refuse an address not assigned to one of the device interfaces', async () => {
    const res = await patchDevice({ primary_ip4: loose.id });
    assert.equal(res.status, 400);
    assert.match(res.body.primary_ip4[0], /not assigned to this device/);
  });

  it('should accept assigned addresses, and accept the NAT outside address of one', async () => {
    const ok = await patchDevice({ primary_ip4: v4.id, primary_ip6: v6.id });
    assert.equal(ok.status, 200, ok.raw);
    assert.equal(ok.body.primary_ip4.id, v4.id);
    const outside = await create(t, '/api/ipam/ip-addresses/', { address: '10.0.0.50/24', status: 'Active', namespace: 'Global', nat_inside: v4.id });
    assert.equal((await patchDevice({ primary_ip4: outside.id })).status, 200);
    assert.equal((await patchDevice({ primary_ip4: v4.id })).status, 200);
  });

  it('should clear the primary IP when its assignment to the device is removed', async () => {
    const assignment = (await t.call('GET', `/api/ipam/ip-address-to-interface/?ip_address=${v6.id}`)).body.results[0];
    assert.equal((await t.call('DELETE', `/api/ipam/ip-address-to-interface/${assignment.id}/`)).status, 204);
    const got = (await t.call('GET', `/api/dcim/devices/${device.id}/`)).body;
    assert.equal(got.primary_ip6, null);
    assert.equal(got.primary_ip4.id, v4.id);
  });
});

describe('virtual machine and context primary IPs', () => {
  it('should require the VM address on one of the VM interfaces', async () => {
    const type = await create(t, '/api/virtualization/cluster-types/', { name: 'KVM' });
    const cluster = await create(t, '/api/virtualization/clusters/', { name: 'c1', cluster_type: type.id });
    const vm = await create(t, '/api/virtualization/virtual-machines/', { name: 'vm1', cluster: cluster.id, status: 'Active' });
    const vmIface = await create(t, '/api/virtualization/interfaces/', { virtual_machine: vm.id, name: 'eth0', status: 'Active' });
    const bad = await t.call('PATCH', `/api/virtualization/virtual-machines/${vm.id}/`, { primary_ip4: loose.id });
    assertRefused(bad, 400, { primary_ip4: ['The specified IP address (10.0.0.9/24) is not assigned to this VM.'] });
    await create(t, '/api/ipam/ip-address-to-interface/', { ip_address: loose.id, vm_interface: vmIface.id });
    assert.equal((await t.call('PATCH', `/api/virtualization/virtual-machines/${vm.id}/`, { primary_ip4: loose.id })).status, 200);
  });

  it('should require a context address on an interface of the context device', async () => {
    const vdc = await create(t, '/api/dcim/virtual-device-contexts/', { name: 'ctx', device: device.id, status: 'Active' });
    const bad = await t.call('PATCH', `/api/dcim/virtual-device-contexts/${vdc.id}/`, { primary_ip4: loose.id });
    assertRefused(bad, 400, { primary_ip4: ['The specified IP address (10.0.0.9/24) is not assigned to this virtual device context.'] });
    assert.equal((await t.call('PATCH', `/api/dcim/virtual-device-contexts/${vdc.id}/`, { primary_ip4: v4.id })).status, 200);
    const other = await create(t, '/api/dcim/devices/', deviceBody(base, 'r2'));
    const moved = await t.call('PATCH', `/api/dcim/virtual-device-contexts/${vdc.id}/`, { device: other.id });
    assertRefused(moved, 400, { device: ['Virtual Device Context device cannot be changed once created'], primary_ip4: ['The specified IP address (10.0.0.1/24) is not assigned to this virtual device context.'] });
  });
});
