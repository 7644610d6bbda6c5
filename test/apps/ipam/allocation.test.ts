import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, DB_URL, makeApp } from '../../helpers/app.js';
import { assertRefused } from '../../helpers/refusals.js';
import type { TestApp } from '../../helpers/app.js';

const P = '/api/ipam/prefixes/';
const IP = '/api/ipam/ip-addresses/';

let t: TestApp;
before(async () => { t = await makeApp(); });
after(() => t.close());

const prefix = (cidr: string, extra: Record<string, unknown> = {}) => create(t, P, { prefix: cidr, status: 'Active', ...extra });
const freeIps = async (id: string, query = '') => {
  const res = await t.call('GET', `${P}${id}/available-ips/${query}`);
  assert.equal(res.status, 200, res.raw);
  return res.body.map((o: { address: string }) => o.address);
};

describe('GET /api/ipam/prefixes/<id>/available-ips/', () => {
  it('should leave out network and broadcast of an IPv4 network, and the addresses in use', async () => {
    const p = await prefix('192.168.10.0/29');
    await create(t, IP, { address: '192.168.10.2/29', status: 'Active', namespace: 'Global' });
    await prefix('192.168.10.4/30');
    await create(t, IP, { address: '192.168.10.5/30', status: 'Active', namespace: 'Global' });
    assert.deepEqual(await freeIps(p.id), ['192.168.10.1/29', '192.168.10.3/29', '192.168.10.4/29', '192.168.10.6/29']);
    const res = await t.call('GET', `${P}${p.id}/available-ips/`);
    assert.deepEqual(res.body[0], { ip_version: 4, address: '192.168.10.1/29' });
  });

  it('should offer every address of a pool, a /31 and a /32', async () => {
    const pool = await prefix('192.168.11.0/30', { type: 'pool' });
    assert.deepEqual(await freeIps(pool.id), ['192.168.11.0/30', '192.168.11.1/30', '192.168.11.2/30', '192.168.11.3/30']);
    assert.deepEqual(await freeIps((await prefix('192.168.12.0/31')).id), ['192.168.12.0/31', '192.168.12.1/31']);
    assert.deepEqual(await freeIps((await prefix('192.168.13.7/32')).id), ['192.168.13.7/32']);
  });

  it('should offer every IPv6 address, with limit and range bounds', async () => {
    assert.deepEqual(await freeIps((await prefix('2001:db8:a::/127')).id), ['2001:db8:a::/127', '2001:db8:a::1/127']);
    assert.deepEqual(await freeIps((await prefix('2001:db8:b::1/128')).id), ['2001:db8:b::1/128']);
    const big = await prefix('2001:db8:c::/64');
    assert.deepEqual(await freeIps(big.id, '?limit=3'), ['2001:db8:c::/64', '2001:db8:c::1/64', '2001:db8:c::2/64']);
    assert.equal((await freeIps(big.id)).length, 50, 'PAGINATE_COUNT by default');
    assert.deepEqual(await freeIps(big.id, '?limit=2&range_start=2001:db8:c::ff&range_end=2001:db8:c::ff'), ['2001:db8:c::ff/64']);
    const bad = await t.call('GET', `${P}${big.id}/available-ips/?range_start=zz`);
    assertRefused(bad, 400, { range_start: ['Invalid IP address format: zz'] });
  });
});

describe('POST /api/ipam/prefixes/<id>/available-ips/', () => {
  it('should allocate one or a list in ascending order, placed under the closest prefix', async () => {
    const p = await prefix('172.20.0.0/24');
    const child = await prefix('172.20.0.0/28');
    const one = await t.call('POST', `${P}${p.id}/available-ips/`, { status: 'Active', dns_name: 'a' });
    assert.equal(one.status, 201, one.raw);
    assert.equal(one.body.address, '172.20.0.1/24');
    assert.equal(one.body.parent.id, child.id);
    const two = await t.call('POST', `${P}${p.id}/available-ips/`, [{ status: 'Active' }, { status: 'Active', address: '9.9.9.9/8' }]);
    assert.deepEqual(two.body.map((o: any) => o.address), ['172.20.0.2/24', '172.20.0.3/24']);
  });

  it('should answer 204 without a body and create nothing when too few addresses are free', async () => {
    const p = await prefix('172.21.0.0/30');
    const res = await t.call('POST', `${P}${p.id}/available-ips/`, [{ status: 'Active' }, { status: 'Active' }, { status: 'Active' }]);
    assert.equal(res.status, 204);
    assert.equal(res.raw, '', 'a 204 carries no body (the JSON detail of the reference never reaches HTTP clients)');
    assert.equal(res.headers['content-type'], undefined);
    assert.equal(res.headers['content-length'], undefined);
    assert.deepEqual(await freeIps(p.id), ['172.21.0.1/30', '172.21.0.2/30']);
  });

  it('should allocate within range_start and range_end, and answer 204 when that range is full', async () => {
    const p = await prefix('172.24.0.0/24');
    const url = `${P}${p.id}/available-ips/?range_start=172.24.0.10&range_end=172.24.0.11`;
    const two = await t.call('POST', url, [{ status: 'Active' }, { status: 'Active' }]);
    assert.equal(two.status, 201, two.raw);
    assert.deepEqual(two.body.map((o: any) => o.address), ['172.24.0.10/24', '172.24.0.11/24']);
    const full = await t.call('POST', url, { status: 'Active' });
    assert.equal(full.status, 204);
    assert.equal((await t.call('GET', `${IP}?parent=${p.id}`)).body.count, 2);
    const bad = await t.call('POST', `${P}${p.id}/available-ips/?range_end=nope`, { status: 'Active' });
    assert.equal(bad.status, 400);
    assert.deepEqual(Object.keys(bad.body), ['range_end']);
  });

  it('should create nothing when one item is invalid', async () => {
    const p = await prefix('172.22.0.0/29');
    const res = await t.call('POST', `${P}${p.id}/available-ips/`, [{ status: 'Active' }, { status: 'nope' }]);
    assertRefused(res, 400, [{}, { status: ["Related object not found using the provided attributes: {'name': 'nope'}"] }]);
    assert.equal((await freeIps(p.id)).length, 6);
  });

  it('should never hand out the same address to parallel requests', async () => {
    const p = await prefix('172.23.0.0/24');
    const url = `${P}${p.id}/available-ips/`;
    const results = await Promise.all(Array.from({ length: 4 }, () => t.call('POST', url, [{ status: 'Active' }, { status: 'Active' }])));
    for (const r of results) assert.equal(r.status, 201, r.raw);
    const addresses = results.flatMap((r) => r.body.map((o: any) => o.address));
    assert.equal(new Set(addresses).size, 8, `${DB_URL}: ${addresses.join(' ')}`);
    assert.equal((await t.call('GET', `${IP}?parent=${p.id}`)).body.count, 8);
  });
});

describe('available-prefixes', () => {
  it('should list the free blocks minus descendants at any depth', async () => {
    const p = await prefix('10.128.0.0/24', { type: 'container' });
    await prefix('10.128.0.0/26');
    await prefix('10.128.0.0/28');
    await prefix('10.128.0.192/27');
    const res = await t.call('GET', `${P}${p.id}/available-prefixes/`);
    assert.deepEqual(res.body, [{ ip_version: 4, prefix: '10.128.0.64/26' }, { ip_version: 4, prefix: '10.128.0.128/26' }, { ip_version: 4, prefix: '10.128.0.224/27' }]);
    const v6 = await prefix('2001:db8:f::/48');
    await prefix('2001:db8:f::/49');
    assert.deepEqual((await t.call('GET', `${P}${v6.id}/available-prefixes/`)).body, [{ ip_version: 6, prefix: '2001:db8:f:8000::/49' }]);
  });

  it('should allocate the first fitting block, one or a list, in the parent namespace', async () => {
    const ns = await create(t, '/api/ipam/namespaces/', { name: 'alloc' });
    const p = await prefix('10.129.0.0/24', { namespace: ns.id, type: 'container' });
    await prefix('10.129.0.0/26', { namespace: ns.id });
    const one = await t.call('POST', `${P}${p.id}/available-prefixes/`, { prefix_length: 27, status: 'Active', description: 'x' });
    assert.equal(one.status, 201, one.raw);
    assert.equal(one.body.prefix, '10.129.0.64/27');
    assert.equal(one.body.namespace.id, ns.id);
    assert.equal(one.body.parent.id, p.id);
    const list = await t.call('POST', `${P}${p.id}/available-prefixes/`, [{ prefix_length: 26, status: 'Active' }, { prefix_length: 27, status: 'Active' }]);
    assert.deepEqual(list.body.map((o: any) => o.prefix), ['10.129.0.128/26', '10.129.0.96/27']);
    const full = await t.call('POST', `${P}${p.id}/available-prefixes/`, { prefix_length: 25, status: 'Active' });
    assert.equal(full.status, 204);
    assert.equal(full.raw, '');
    const text = await t.call('POST', `${P}${p.id}/available-prefixes/`, { prefix_length: '28', status: 'Active' });
    assert.equal(text.status, 400);
    assert.deepEqual(text.body, { prefix_length: 'This field must be an integer.' }, 'the shape of the reference: a string, not a list');
    const missing = await t.call('POST', `${P}${p.id}/available-prefixes/`, { status: 'Active' });
    assertRefused(missing, 400, { prefix_length: ['This field is required.'] });
    assertRefused(await t.call('POST', `${P}${p.id}/available-prefixes/`, { prefix_length: 33, status: 'Active' }), 400, { prefix_length: ['Ensure this value is less than or equal to 32.'] });
  });

  it('should never hand out the same block to parallel requests', async () => {
    const p = await prefix('10.130.0.0/24');
    const url = `${P}${p.id}/available-prefixes/`;
    const results = await Promise.all(Array.from({ length: 4 }, () => t.call('POST', url, { prefix_length: 26, status: 'Active' })));
    const blocks = results.map((r) => { assert.equal(r.status, 201, r.raw); return r.body.prefix; });
    assert.deepEqual(blocks.sort(), ['10.130.0.0/26', '10.130.0.128/26', '10.130.0.192/26', '10.130.0.64/26']);
  });
});

describe('GET|POST /api/ipam/vlan-groups/<id>/available-vlans/', () => {
  it('should normalise the range and list free ids', async () => {
    const group = await create(t, '/api/ipam/vlan-groups/', { name: 'g1', range: '20-22, 5,6' });
    assert.equal(group.range, '5-6,20-22');
    await create(t, '/api/ipam/vlans/', { name: 'used', vid: 6, status: 'Active', vlan_group: group.id });
    const res = await t.call('GET', `/api/ipam/vlan-groups/${group.id}/available-vlans/?limit=3`);
    assert.deepEqual(res.body, { count: 3, next: null, previous: null, results: [5, 20, 21] });
    const outside = await t.call('POST', '/api/ipam/vlans/', { name: 'x', vid: 100, status: 'Active', vlan_group: group.id });
    assertRefused(outside, 400, { vid: ['VLAN ID is not contained in VLAN Group range (5-6,20-22)'] });
    const shrink = await t.call('PATCH', `/api/ipam/vlan-groups/${group.id}/`, { range: '20-22' });
    assertRefused(shrink, 400, { range: ['VLAN group range may not be changed to exclude VLANs already in the group: 6.'] });
    assertRefused(await t.call('POST', '/api/ipam/vlan-groups/', { name: 'bad', range: '0-5000' }), 400, { range: ['Enter VLAN ids or ranges (e.g. 1-10,20) between 1 and 4094.'] });
  });

  it('should create VLANs on the lowest free ids or the ids asked for', async () => {
    const group = await create(t, '/api/ipam/vlan-groups/', { name: 'g2', range: '100-103' });
    const res = await t.call('POST', `/api/ipam/vlan-groups/${group.id}/available-vlans/`, [{ name: 'a', status: 'Active' }, { name: 'b', status: 'Active', vid: 100 }]);
    assert.equal(res.status, 201, res.raw);
    assert.equal(res.body.count, 2);
    assert.deepEqual(res.body.results.map((v: any) => [v.name, v.vid, v.vlan_group.id]), [['a', 101, group.id], ['b', 100, group.id]]);
    const taken = await t.call('POST', `/api/ipam/vlan-groups/${group.id}/available-vlans/`, { name: 'c', status: 'Active', vid: 100 });
    assert.equal(taken.status, 204);
    const tooMany = await t.call('POST', `/api/ipam/vlan-groups/${group.id}/available-vlans/`, [{ name: 'c', status: 'Active' }, { name: 'd', status: 'Active' }, { name: 'e', status: 'Active' }]);
    assert.equal(tooMany.status, 204);
    assert.equal((await t.call('GET', `/api/ipam/vlans/?vlan_group=${group.id}`)).body.count, 2);
  });
});
