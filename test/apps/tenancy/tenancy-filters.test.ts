import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import { deviceBody, makeDcimBase } from '../dcim/dcim-setup.js';
import type { TestApp } from '../../helpers/app.js';

let t: TestApp;
const o: Record<string, any> = {};

/** Sorted values of one key of a list's results. */
async function list(url: string, key = 'id'): Promise<string[]> {
  const res = await t.call('GET', url);
  assert.equal(res.status, 200, `${url}: ${res.raw}`);
  return res.body.results.map((r: Record<string, string>) => r[key]).sort();
}

before(async () => {
  t = await makeApp();
  const base = await makeDcimBase(t);
  o.top = await create(t, '/api/tenancy/tenant-groups/', { name: 'Top' });
  o.sub = await create(t, '/api/tenancy/tenant-groups/', { name: 'Sub', parent: o.top.id });
  o.lone = await create(t, '/api/tenancy/tenant-groups/', { name: 'Lone' });
  o.a = await create(t, '/api/tenancy/tenants/', { name: 'A', tenant_group: o.sub.id });
  o.b = await create(t, '/api/tenancy/tenants/', { name: 'B' });
  o.c = await create(t, '/api/tenancy/tenants/', { name: 'C' });
  o.pa = await create(t, '/api/ipam/prefixes/', { prefix: '10.0.0.0/24', status: 'Active', tenant: o.a.id });
  o.pb = await create(t, '/api/ipam/prefixes/', { prefix: '10.1.0.0/24', status: 'Active', tenant: o.b.id });
  o.pn = await create(t, '/api/ipam/prefixes/', { prefix: '10.2.0.0/24', status: 'Active' });
  o.ipa = await create(t, '/api/ipam/ip-addresses/', { address: '10.0.0.1/24', namespace: 'Global', status: 'Active', tenant: o.a.id });
  o.ipb = await create(t, '/api/ipam/ip-addresses/', { address: '10.1.0.1/24', namespace: 'Global', status: 'Active', tenant: o.b.id });
  o.vlana = await create(t, '/api/ipam/vlans/', { vid: 10, name: 'ten', status: 'Active', tenant: o.a.id });
  o.vlann = await create(t, '/api/ipam/vlans/', { vid: 20, name: 'twenty', status: 'Active' });
  o.rta = await create(t, '/api/ipam/route-targets/', { name: '65000:1', tenant: o.a.id });
  o.rtb = await create(t, '/api/ipam/route-targets/', { name: '65000:2', tenant: o.b.id });
  o.vrfa = await create(t, '/api/ipam/vrfs/', { name: 'red', tenant: o.a.id, import_targets: [o.rta.id], export_targets: [o.rtb.id] });
  o.vrfb = await create(t, '/api/ipam/vrfs/', { name: 'blue', tenant: o.b.id, import_targets: [o.rtb.id] });
  o.da = await create(t, '/api/dcim/devices/', deviceBody(base, 'dev-a', { tenant: o.a.id }));
  o.db = await create(t, '/api/dcim/devices/', deviceBody(base, 'dev-b', { tenant: o.b.id }));
  await create(t, '/api/dcim/devices/', deviceBody(base, 'dev-none'));
  o.vca = await create(t, '/api/dcim/virtual-chassis/', { name: 'vc-a' });
  o.vcb = await create(t, '/api/dcim/virtual-chassis/', { name: 'vc-b' });
  for (const [vc, dev] of [[o.vca, o.da], [o.vcb, o.db]]) {
    assert.equal((await t.call('PATCH', `/api/dcim/devices/${dev.id}/`, { virtual_chassis: vc.id, vc_position: 1 })).status, 200);
    assert.equal((await t.call('PATCH', `/api/dcim/virtual-chassis/${vc.id}/`, { master: dev.id })).status, 200);
  }
});
after(() => t.close());

describe('tenant_id and tenant_group on IPAM models', () => {
  it('should filter by tenant id, and by tenant group including its subgroups', async () => {
    assert.deepEqual(await list(`/api/ipam/prefixes/?tenant_id=${o.a.id}`), [o.pa.id]);
    assert.deepEqual(await list(`/api/ipam/prefixes/?tenant_id__n=${o.a.id}`), [o.pb.id, o.pn.id].sort());
    assert.deepEqual(await list('/api/ipam/prefixes/?tenant_group=Top'), [o.pa.id]);
    assert.deepEqual(await list(`/api/ipam/ip-addresses/?tenant_group=${o.sub.id}`), [o.ipa.id]);
    assert.deepEqual(await list(`/api/ipam/ip-addresses/?tenant_id=${o.b.id}`), [o.ipb.id]);
    assert.deepEqual(await list('/api/ipam/vlans/?tenant_group=Top'), [o.vlana.id]);
    assert.deepEqual(await list(`/api/ipam/vrfs/?tenant_id=${o.b.id}`), [o.vrfb.id]);
    assert.deepEqual(await list('/api/ipam/route-targets/?tenant_group=Sub'), [o.rta.id]);
    assert.deepEqual(await list('/api/ipam/prefixes/?tenant_group=Lone'), []);
  });

  it('should filter virtual chassis by their master device\'s tenant group', async () => {
    assert.deepEqual(await list('/api/dcim/virtual-chassis/?tenant_group=Top'), [o.vca.id]);
  });

  it('should answer an unknown tenant or group with the reference\'s 400', async () => {
    const ghost = '00000000-0000-4000-8000-000000000000';
    const res = await t.call('GET', `/api/ipam/prefixes/?tenant_id=${ghost}`);
    assert.equal(res.status, 400);
    assert.deepEqual(Object.keys(res.body), ['tenant_id']);
    assert.match(res.body.tenant_id[0], /^Select a valid choice/);
    const group = await t.call('GET', '/api/ipam/vlans/?tenant_group=nowhere');
    assert.equal(group.status, 400);
    assert.match(group.body.tenant_group[0], /^Select a valid choice/);
  });
});

describe('route targets by the VRFs importing or exporting them', () => {
  it('should follow import_targets and export_targets separately', async () => {
    assert.deepEqual(await list(`/api/ipam/route-targets/?importing_vrfs=${o.vrfa.id}`), [o.rta.id]);
    assert.deepEqual(await list('/api/ipam/route-targets/?importing_vrfs=blue'), [o.rtb.id]);
    assert.deepEqual(await list('/api/ipam/route-targets/?exporting_vrfs=red'), [o.rtb.id]);
  });
});

describe('tenant reverse filters', () => {
  it('should find the tenants an object points at, by id or natural key', async () => {
    assert.deepEqual(await list(`/api/tenancy/tenants/?prefixes=${o.pb.id}`, 'name'), ['B']);
    assert.deepEqual(await list('/api/tenancy/tenants/?devices=dev-a', 'name'), ['A']);
    assert.deepEqual(await list(`/api/tenancy/tenants/?vrfs=red&vrfs=${o.vrfb.id}`, 'name'), ['A', 'B']);
    assert.deepEqual(await list(`/api/tenancy/tenants/?ip_addresses=${o.ipa.id}`, 'name'), ['A']);
    assert.deepEqual(await list(`/api/tenancy/tenants/?route_targets=${o.rtb.id}`, 'name'), ['B']);
  });

  it('should exclude with __n, a related object without a tenant excluding none', async () => {
    assert.deepEqual(await list('/api/tenancy/tenants/?devices__n=dev-a', 'name'), ['B', 'C']);
    assert.deepEqual(await list('/api/tenancy/tenants/?devices__n=dev-none', 'name'), ['A', 'B', 'C']);
  });

  it('should split tenants by has_<related>', async () => {
    assert.deepEqual(await list('/api/tenancy/tenants/?has_vlans=true', 'name'), ['A']);
    assert.deepEqual(await list('/api/tenancy/tenants/?has_vlans=false', 'name'), ['B', 'C']);
    assert.deepEqual(await list('/api/tenancy/tenants/?has_devices=true', 'name'), ['A', 'B']);
    assert.deepEqual(await list('/api/tenancy/tenants/?has_devices=false', 'name'), ['C']);
    assert.deepEqual(await list('/api/tenancy/tenants/?has_racks=true', 'name'), []);
  });

  it('should refuse a related object that does not exist', async () => {
    const res = await t.call('GET', '/api/tenancy/tenants/?devices=no-such-device');
    assert.equal(res.status, 400);
    assert.match(res.body.devices[0], /^Select a valid choice/);
  });
});

describe('tenant group reverse filters', () => {
  it('should find groups by their children and tenants', async () => {
    assert.deepEqual(await list('/api/tenancy/tenant-groups/?children=Sub', 'name'), ['Top']);
    assert.deepEqual(await list('/api/tenancy/tenant-groups/?has_children=false', 'name'), ['Lone', 'Sub']);
    assert.deepEqual(await list('/api/tenancy/tenant-groups/?tenants=A', 'name'), ['Sub']);
    assert.deepEqual(await list('/api/tenancy/tenant-groups/?has_tenants=true', 'name'), ['Sub']);
    assert.deepEqual(await list('/api/tenancy/tenant-groups/?has_tenants=false', 'name'), ['Lone', 'Top']);
  });
});
