import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import { deviceBody, makeDcimBase } from '../dcim/dcim-setup.js';
import { assertRefused, countOf } from '../../helpers/refusals.js';
import type { TestApp } from '../../helpers/app.js';
import type { DcimBase } from '../dcim/dcim-setup.js';

let t: TestApp;
let base: DcimBase;
let clusterType: any;
let cluster: any;

before(async () => {
  t = await makeApp();
  base = await makeDcimBase(t);
  clusterType = await create(t, '/api/virtualization/cluster-types/', { name: 'KVM' });
  cluster = await create(t, '/api/virtualization/clusters/', { name: 'berlin', cluster_type: clusterType.id, location: base.site.id });
});
after(() => t.close());

describe('clusters', () => {
  it('should refuse a location whose type does not permit clusters', async () => {
    const res = await t.call('POST', '/api/virtualization/clusters/', { name: 'room', cluster_type: clusterType.id, location: base.room.id });
    assertRefused(res, 400, { location: ['Clusters may not associate to locations of type "Room".'] });
  });

  it('should refuse moving a cluster away from the location of its hosts', async () => {
    await create(t, '/api/dcim/devices/', deviceBody(base, 'host1', { cluster: cluster.id }));
    const res = await t.call('PATCH', `/api/virtualization/clusters/${cluster.id}/`, { location: base.site2.id });
    assert.equal(res.status, 400);
    assert.match(res.body.location[0], /host1/);
  });
});

describe('virtual machines', () => {
  it('should refuse a duplicate name in a cluster without tenants', async () => {
    assert.equal((await t.call('POST', '/api/virtualization/virtual-machines/', { name: 'vm', cluster: cluster.id, status: 'Active' })).status, 201);
    const dup = await t.call('POST', '/api/virtualization/virtual-machines/', { name: 'vm', cluster: cluster.id, status: 'Active' });
    assertRefused(dup, 400, { name: ['A virtual machine with this name already exists in the assigned cluster.'] });
  });

  it('should check VM interface VLAN modes and the cluster location of tagged VLANs', async () => {
    const vm = (await t.call('GET', '/api/virtualization/virtual-machines/?name=vm')).body.results[0];
    const [here, there] = await create(t, '/api/ipam/vlans/', [
      { vid: 10, name: 'here', status: 'Active', location: base.site.id },
      { vid: 20, name: 'there', status: 'Active', location: base.site2.id },
    ]);
    const post = (name: string, extra: Record<string, unknown>) => t.call('POST', '/api/virtualization/interfaces/', { virtual_machine: vm.id, name, status: 'Active', ...extra });
    assertRefused(await post('e0', { untagged_vlan: here.id }), 400, { untagged_vlan: ['Mode must be set when specifying untagged_vlan'] });
    assertRefused(await post('e1', { mode: 'access', tagged_vlans: [here.id] }), 400, { tagged_vlans: ['Mode must be set to tagged when specifying tagged_vlans'] });
    assertRefused(await post('e2', { mode: 'tagged', tagged_vlans: [there.id] }), 400, { tagged_vlans: [`VLAN ${there.id} must be global or available at the location of the interface's parent.`] });
    assert.equal(await countOf(t, `/api/virtualization/interfaces/?virtual_machine=${vm.id}`), 0, 'no refused interface is written');
    assert.equal((await post('e3', { mode: 'tagged', tagged_vlans: [here.id] })).status, 201);
  });
});
