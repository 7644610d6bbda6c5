import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';

const P = '/api/ipam/prefixes/';
const IP = '/api/ipam/ip-addresses/';
const NS = '/api/ipam/namespaces/';

let t: TestApp;
before(async () => { t = await makeApp(); });
after(() => t.close());

const namespace = (name: string) => create(t, NS, { name });
const prefix = (cidr: string, ns: string) => create(t, P, { prefix: cidr, status: 'Active', namespace: ns });
const address = (addr: string, ns: string) => create(t, IP, { address: addr, status: 'Active', namespace: ns });
const get = async (path: string, id: string) => (await t.call('GET', `${path}${id}/`)).body;
const parentOf = async (path: string, id: string) => (await get(path, id)).parent?.id ?? null;
const move = (id: string, ns: string, extra: Record<string, unknown> = {}) => t.call('PATCH', `${P}${id}/`, { namespace: ns, ...extra });
const cidrsIn = async (ns: string) => (await t.call('GET', `${P}?namespace=${ns}&limit=0`)).body.results.map((p: any) => p.prefix).sort();
const hostsIn = async (ns: string) => (await t.call('GET', `${IP}?namespace=${ns}&limit=0`)).body.results.map((i: any) => i.host).sort();

/** A root /16 with a /24, two children of that and an address, in namespace `ns`. */
async function tree(ns: string, base: string) {
  const root = await prefix(`${base}.0.0/16`, ns);
  const mid = await prefix(`${base}.103.0/24`, ns);
  const child1 = await prefix(`${base}.103.0/26`, ns);
  const child2 = await prefix(`${base}.103.104/32`, ns);
  const ip = await address(`${base}.103.5/24`, ns);
  return { root, mid, child1, child2, ip };
}

describe('PATCH /api/ipam/prefixes/<id>/ namespace', () => {
  it('should carry descendants and their addresses into an empty namespace, keeping their parents', async () => {
    const [a, b] = [await namespace('a1'), await namespace('b1')];
    const outer = await prefix('101.0.0.0/8', 'a1');
    const { root, mid, child1, child2, ip } = await tree('a1', '101.102');
    const res = await move(root.id, b.id);
    assert.equal(res.status, 200, res.raw);
    assert.equal(res.body.namespace.id, b.id);
    assert.equal(res.body.parent, null, 'no containing prefix in the new namespace');
    assert.deepEqual(await cidrsIn('a1'), ['101.0.0.0/8'], `${a.id}: only the outer prefix stays`);
    assert.deepEqual(await cidrsIn('b1'), ['101.102.0.0/16', '101.102.103.0/24', '101.102.103.0/26', '101.102.103.104/32']);
    assert.equal(await parentOf(P, mid.id), root.id);
    assert.equal(await parentOf(P, child1.id), mid.id);
    assert.equal(await parentOf(P, child2.id), mid.id);
    assert.equal(await parentOf(IP, ip.id), child1.id);
    assert.deepEqual(await hostsIn('b1'), ['101.102.103.5']);
    assert.deepEqual(await hostsIn('a1'), []);
    assert.equal((await t.call('GET', `${IP}b1;101.102.103.5/`)).body.id, ip.id, 'natural key follows the namespace');
    assert.equal((await t.call('DELETE', `${P}${outer.id}/`)).status, 204, 'the old container has no children left');
  });

  it('should merge into a namespace that already holds prefixes and addresses in the range', async () => {
    await namespace('a2');
    const b = await namespace('b2');
    const { root, mid, child1, child2, ip } = await tree('a2', '101.102');
    const catchall = await prefix('0.0.0.0/0', 'b2');
    const newParent = await prefix('101.102.200.0/24', 'b2');
    const newChild = await prefix('101.102.103.64/26', 'b2');
    const newGrandchild = await prefix('101.102.103.0/27', 'b2');
    const newIp = await address('101.102.150.200/32', 'b2');
    const res = await move(root.id, b.id);
    assert.equal(res.status, 200, res.raw);
    assert.equal(res.body.parent.id, catchall.id);
    assert.equal(await parentOf(P, mid.id), root.id);
    assert.equal(await parentOf(P, child1.id), mid.id);
    assert.equal(await parentOf(P, child2.id), newChild.id);
    assert.equal(await parentOf(P, newParent.id), root.id);
    assert.equal(await parentOf(P, newChild.id), mid.id);
    assert.equal(await parentOf(P, newGrandchild.id), child1.id);
    assert.equal(await parentOf(IP, newIp.id), root.id);
    assert.equal(await parentOf(IP, ip.id), newGrandchild.id);
    assert.equal(await parentOf(P, catchall.id), null);
    assert.deepEqual(await cidrsIn('a2'), []);
  });

  it('should refuse a namespace already holding the prefix, a descendant or a host, and change nothing', async () => {
    await namespace('a3');
    await namespace('b3');
    const { root, mid, ip } = await tree('a3', '102.102');
    const same = await prefix('102.102.0.0/16', 'b3');
    const dup = await move(root.id, 'b3');
    assert.equal(dup.status, 400);
    assert.deepEqual(dup.body, { __all__: ['Prefix with this Namespace, Network and Prefix length already exists.'] });
    assert.equal((await t.call('DELETE', `${P}${same.id}/`)).status, 204);
    const taken = await prefix('102.102.103.0/24', 'b3');
    const clash = await move(root.id, 'b3');
    assert.equal(clash.status, 400);
    assert.deepEqual(clash.body, { namespace: ['The target Namespace already holds prefixes that would move with this one: 102.102.103.0/24'] });
    await prefix('0.0.0.0/0', 'b3');
    assert.equal((await t.call('DELETE', `${P}${taken.id}/`)).status, 204);
    await address('102.102.103.5/32', 'b3');
    const host = await move(root.id, 'b3');
    assert.equal(host.status, 400);
    assert.deepEqual(host.body, { namespace: ['The target Namespace already holds IP addresses that would move with this prefix: 102.102.103.5'] });
    assert.deepEqual(await cidrsIn('a3'), ['102.102.0.0/16', '102.102.103.0/24', '102.102.103.0/26', '102.102.103.104/32']);
    assert.equal((await get(P, mid.id)).namespace.id, (await get(P, root.id)).namespace.id);
    assert.equal((await t.call('GET', `${IP}a3;102.102.103.5/`)).body.id, ip.id);
  });

  it('should refuse a network change in the same update', async () => {
    await namespace('a4');
    await namespace('b4');
    const root = await prefix('103.1.0.0/16', 'a4');
    const res = await move(root.id, 'b4', { prefix: '103.2.0.0/16' });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { __all__: ['Cannot change network and namespace in the same update. Consider creating a new Prefix instead.'] });
    const same = await move(root.id, 'b4', { prefix: '103.1.0.0/16' });
    assert.equal(same.status, 200, `an unchanged prefix is no network change: ${same.raw}`);
  });

  it('should refuse while the prefix or a descendant is assigned to VRFs', async () => {
    const a = await namespace('a5');
    await namespace('b5');
    const { root, child1 } = await tree('a5', '104.102');
    const vrf = await create(t, '/api/ipam/vrfs/', { name: 'red', namespace: a.id });
    const own = await create(t, '/api/ipam/vrf-prefix-assignments/', { vrf: vrf.id, prefix: root.id });
    const first = await move(root.id, 'b5');
    assert.equal(first.status, 400);
    assert.deepEqual(first.body, { namespace: ['Cannot move to a different Namespace while associated to VRFs in the current Namespace. Remove all VRFs from this Prefix and descendants before making this change.'] });
    assert.equal((await t.call('DELETE', `/api/ipam/vrf-prefix-assignments/${own.id}/`)).status, 204);
    const below = await create(t, '/api/ipam/vrf-prefix-assignments/', { vrf: vrf.id, prefix: child1.id });
    const second = await move(root.id, 'b5');
    assert.equal(second.status, 400);
    assert.deepEqual(second.body, { namespace: ['Cannot move to a different Namespace with descendant Prefixes associated to VRFs in the current Namespace. Remove all VRFs from all descendants before making this change.'] });
    assert.equal((await t.call('DELETE', `/api/ipam/vrf-prefix-assignments/${below.id}/`)).status, 204);
    assert.equal((await move(root.id, 'b5')).status, 200);
    assert.deepEqual(await cidrsIn('a5'), []);
  });
});

describe('PATCH /api/ipam/prefixes/ (bulk) namespace', () => {
  for (const [order, base] of [['child first', '106.102'], ['root first', '106.103']] as const) {
    it(`should move a prefix and its own descendant named in the same request (${order})`, async () => {
      await namespace(`a-${base}`);
      const b = await namespace(`b-${base}`);
      const { root, mid, child1, ip } = await tree(`a-${base}`, base);
      const items = [{ id: mid.id, namespace: b.id }, { id: root.id, namespace: b.id }];
      const res = await t.call('PATCH', P, order === 'child first' ? items : items.reverse());
      assert.equal(res.status, 200, res.raw);
      assert.deepEqual(await cidrsIn(`a-${base}`), []);
      assert.equal(await parentOf(P, root.id), null);
      assert.equal(await parentOf(P, mid.id), root.id);
      assert.equal(await parentOf(P, child1.id), mid.id);
      assert.equal(await parentOf(IP, ip.id), child1.id);
      assert.deepEqual(await hostsIn(`b-${base}`), [`${base}.103.5`]);
    });
  }
});

describe('POST /api/ipam/vrf-prefix-assignments/', () => {
  it('should refuse a VRF of another namespace, naming both namespaces', async () => {
    await namespace('a6');
    const vrf = await create(t, '/api/ipam/vrfs/', { name: 'green' });
    const p = await prefix('105.1.0.0/16', 'a6');
    const res = await t.call('POST', '/api/ipam/vrf-prefix-assignments/', { vrf: vrf.id, prefix: p.id });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { prefix: ['Prefix (namespace a6) must be in same namespace as VRF (namespace Global)'] });
  });
});
