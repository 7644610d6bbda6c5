import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { countStatements, create, makeApp } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';
import type { ResolvedModel } from '../../src/core/registry/types.js';

/**
 * Related rows of a page load in waves that follow the models' FK graph (src/ops/load-waves.ts):
 * a model reached along chains of different lengths (a device type beside the page's devices and
 * behind a cable peer's device) is read once, in one statement.
 */

let t: TestApp;

before(async () => {
  t = await makeApp();
  await create(t, '/api/dcim/location-types/', { name: 'Campus', nestable: true, content_types: ['dcim.device', 'ipam.vlan'] });
  const root = await create(t, '/api/dcim/locations/', { name: 'root', location_type: 'Campus', status: 'Active' });
  const child = await create(t, '/api/dcim/locations/', { name: 'child', location_type: 'Campus', status: 'Active', parent: root.id });
  const [m1, m2] = await create(t, '/api/dcim/manufacturers/', [{ name: 'm1' }, { name: 'm2' }]);
  const [t1, t2] = await create(t, '/api/dcim/device-types/', [{ manufacturer: m1.id, model: 't1' }, { manufacturer: m2.id, model: 't2' }]);
  const role = await create(t, '/api/extras/roles/', { name: 'gear', content_types: ['dcim.device'] });
  const [x, y] = await create(t, '/api/tenancy/tenants/', [{ name: 'x' }, { name: 'y' }]);
  const device = (name: string, type: any, location: any, tenant: any) => create(t, '/api/dcim/devices/', { name, device_type: type.id, role: role.id, location: location.id, tenant: tenant.id, status: 'Active' });
  const a = await device('a', t1, root, x);
  const b = await device('b', t2, child, y);
  const [v1, v2] = await create(t, '/api/ipam/vlans/', [{ vid: 10, name: 'v10', status: 'Active', location: root.id }, { vid: 20, name: 'v20', status: 'Active' }]);
  const [i1] = await create(t, '/api/dcim/interfaces/', [
    { device: a.id, name: 'e1', type: '1000base-t', status: 'Active', mode: 'tagged', untagged_vlan: v1.id, tagged_vlans: [v2.id] },
    { device: a.id, name: 'e2', type: '1000base-t', status: 'Active' },
  ]);
  const j1 = await create(t, '/api/dcim/interfaces/', { device: b.id, name: 'e1', type: '1000base-t', status: 'Active' });
  await create(t, '/api/dcim/cables/', { termination_a_type: 'dcim.interface', termination_a_id: i1.id, termination_b_type: 'dcim.interface', termination_b_id: j1.id, status: 'Connected' });
});
after(() => t.close());

/** Tables whose rows one fresh GET reads by id (or with their tree ancestry), with the number of reads each. */
async function readsByTable(url: string): Promise<Map<string, number>> {
  const store = t.app.services.store;
  const reads = new Map<string, number>();
  const { byIds, withAncestors, ancestorsOf } = store;
  const spy = <A extends unknown[], R>(fn: (exec: any, model: ResolvedModel, ...rest: A) => Promise<R>) => (exec: any, model: ResolvedModel, ...rest: A) => {
    reads.set(model.table, (reads.get(model.table) ?? 0) + 1);
    return fn.call(store, exec, model, ...rest);
  };
  await t.call('GET', url, undefined, { headers: { 'cache-control': 'no-cache' } });
  Object.assign(store, { byIds: spy(byIds), withAncestors: spy(withAncestors), ancestorsOf: spy(ancestorsOf) });
  try {
    const res = await t.call('GET', url, undefined, { headers: { 'cache-control': 'no-cache' } });
    assert.equal(res.status, 200, res.raw);
  } finally {
    Object.assign(store, { byIds, withAncestors, ancestorsOf });
  }
  return reads;
}

describe('related rows in waves', () => {
  it('reads each related model of an interface page at depth 1 once', async () => {
    const reads = await readsByTable('/api/dcim/interfaces/?device=a&depth=1');
    const twice = [...reads].filter(([, n]) => n > 1);
    assert.deepEqual(twice, [], `read more than once: ${JSON.stringify(twice)}`);
    for (const table of ['dcim_devicetype', 'dcim_manufacturer', 'tenancy_tenant', 'dcim_location', 'ipam_vlan']) assert.equal(reads.get(table), 1, table);
  });

  it('costs one statement per related model (interfaces at depth 1)', async () => {
    // The filter's device by name and its modules, count and page, links (tagged VLANs, IP
    // addresses, tags) with the IP address counts in one statement; then the related models: VLAN,
    // status, peer interface, cable, device, device type, tenant, location (with its ancestors),
    // manufacturer. The location's ancestor chain, read by the first of countStatements' two
    // requests, is kept for their generation (Store.treeChain): no statement of its own.
    assert.equal(await countStatements(t, '/api/dcim/interfaces/?device=a&depth=1'), 13);
  });

  it('reads each related model of a device page at depth 2 once', async () => {
    const reads = await readsByTable('/api/dcim/devices/?depth=2');
    assert.deepEqual([...reads].filter(([, n]) => n > 1), []);
  });

  it('reads no join table of a to-many field an extension computes (an IP address NAT list), at the top or nested', async () => {
    await create(t, '/api/ipam/prefixes/', { prefix: '192.0.2.0/24', status: 'Active' });
    const inside = await create(t, '/api/ipam/ip-addresses/', { address: '192.0.2.10/32', status: 'Active', namespace: 'Global' });
    const outside = await create(t, '/api/ipam/ip-addresses/', { address: '192.0.2.20/32', status: 'Active', namespace: 'Global', nat_inside: inside.id });
    const store = t.app.services.store;
    const { linksMany, linksAndCounts } = store;
    const read: string[] = [];
    Object.assign(store, {
      linksMany: (exec: any, model: ResolvedModel, fields: any[], ...rest: any[]) => (read.push(...fields.map((f) => `${model.id}.${f.name}`)), linksMany.call(store, exec, model, fields, ...(rest as [any]))),
      linksAndCounts: (exec: any, model: ResolvedModel, fields: any[], ...rest: any[]) => (read.push(...fields.map((f) => `${model.id}.${f.name}`)), linksAndCounts.call(store, exec, model, fields, ...(rest as [any, any]))),
    });
    try {
      const ips = await t.call('GET', '/api/ipam/ip-addresses/?address=192.0.2.10/32', undefined, { headers: { 'cache-control': 'no-cache' } });
      assert.deepEqual(ips.body.results[0].nat_outside_list.map((o: any) => o.id), [outside.id]);
      const nested = await t.call('GET', '/api/ipam/ip-addresses/?address=192.0.2.20/32&depth=1', undefined, { headers: { 'cache-control': 'no-cache' } });
      assert.deepEqual(nested.body.results[0].nat_inside.nat_outside_list.map((o: any) => o.id), [outside.id]);
    } finally {
      Object.assign(store, { linksMany, linksAndCounts });
    }
    assert.ok(read.includes('ipam.ipaddress.interfaces'), read.join(' '));
    assert.ok(!read.includes('ipam.ipaddress.nat_outside_list'), read.join(' '));
  });
});
