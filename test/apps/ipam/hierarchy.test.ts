import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import { assertRefused } from '../../helpers/refusals.js';
import type { TestApp } from '../../helpers/app.js';

const P = '/api/ipam/prefixes/';
const IP = '/api/ipam/ip-addresses/';

let t: TestApp;
let blue: any;
before(async () => {
  t = await makeApp();
  blue = await create(t, '/api/ipam/namespaces/', { name: 'blue' });
});
after(() => t.close());

const prefix = (cidr: string, extra: Record<string, unknown> = {}) => create(t, P, { prefix: cidr, status: 'Active', ...extra });
const address = (addr: string, extra: Record<string, unknown> = {}) => create(t, IP, { address: addr, status: 'Active', namespace: 'Global', ...extra });
const parentOf = async (path: string, id: string) => (await t.call('GET', `${path}${id}/`)).body.parent?.id ?? null;

describe('prefix input and storage', () => {
  it('should clear host bits and derive network, broadcast, length and both version forms', async () => {
    const p = await prefix('172.16.5.9/12');
    assert.equal(p.prefix, '172.16.0.0/12');
    assert.equal(p.network, '172.16.0.0');
    assert.equal(p.broadcast, '172.31.255.255');
    assert.equal(p.prefix_length, 12);
    assert.equal(p.ip_version, 4);
    assert.deepEqual(p.family, { value: 4, label: 'IPv4' });
    assert.equal(p.display, '172.16.0.0/12: Global');
    assert.equal(p.namespace.id, (await t.call('GET', '/api/ipam/namespaces/?name=Global')).body.results[0].id, 'namespace defaults to Global');
  });

  it('should store IPv6 edges: /0, /127 and /128', async () => {
    const all = await prefix('::/0', { namespace: blue.id });
    assert.equal(all.broadcast, 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff');
    const p127 = await prefix('2001:db8::1/127', { namespace: blue.id });
    assert.equal(p127.prefix, '2001:db8::/127');
    assert.equal(p127.broadcast, '2001:db8::1');
    assert.deepEqual(p127.family, { value: 6, label: 'IPv6' });
    const p128 = await prefix('2001:db8::1/128', { namespace: blue.id });
    assert.equal(p128.parent.id, p127.id);
    assert.equal(p127.parent.id, all.id);
  });

  it('should keep an IPv4-mapped IPv6 prefix apart from the IPv4 one with the same bytes', async () => {
    const mapped = await prefix('::ffff:10.200.0.0/112', { namespace: blue.id });
    const v4 = await prefix('10.200.0.0/16', { namespace: blue.id });
    assert.equal(mapped.network, '::ffff:10.200.0.0');
    assert.equal(mapped.ip_version, 6);
    assert.equal(v4.parent, null, 'an IPv6 prefix never contains an IPv4 one');
    const got = await t.call('GET', `${P}${mapped.id}/`);
    assert.equal(got.body.prefix, '::ffff:10.200.0.0/112');
  });

  it('should answer 400 naming prefix for an invalid CIDR', async () => {
    for (const bad of ['10.0.0.300/8', '10.0.0.0/33', 'nonsense', '2001:db8::/129']) {
      const res = await t.call('POST', P, { prefix: bad, status: 'Active' });
      assert.equal(res.status, 400, bad);
      assert.deepEqual(Object.keys(res.body), ['prefix']);
    }
  });

  it('should refuse the same prefix twice in a namespace and allow it in another', async () => {
    await prefix('192.0.2.0/24');
    const again = await t.call('POST', P, { prefix: '192.0.2.0/24', status: 'Active' });
    assertRefused(again, 400, { __all__: ['Prefix with this Namespace, Network and Prefix length already exists.'] });
    const other = await t.call('POST', P, { prefix: '192.0.2.0/24', status: 'Active', namespace: 'blue' });
    assert.equal(other.status, 201, other.raw);
  });

  it('should find a prefix by its natural key in the path', async () => {
    const res = await t.call('GET', `${P}Global;192.0.2.0;24/`);
    assert.equal(res.status, 200);
    assert.equal(res.body.prefix, '192.0.2.0/24');
    assert.equal(res.body.natural_slug, `global_192-0-2-0_24_${res.body.id.slice(0, 4)}`);
  });
});

describe('prefix hierarchy', () => {
  it('should settle parents of prefixes created in one request in any order', async () => {
    const made = await create(t, P, ['10.1.1.0/24', '10.0.0.0/8', '10.1.0.0/16', '10.1.1.128/25'].map((cidr) => ({ prefix: cidr, status: 'Active' })));
    const [p24, p8, p16, p25] = made;
    assert.equal(await parentOf(P, p8.id), null);
    assert.equal(await parentOf(P, p16.id), p8.id);
    assert.equal(await parentOf(P, p24.id), p16.id);
    assert.equal(await parentOf(P, p25.id), p24.id);
  });

  it('should adopt existing prefixes and addresses when a prefix is inserted between', async () => {
    const outer = await prefix('10.50.0.0/16');
    const inner = await prefix('10.50.1.0/24');
    const ip = await address('10.50.1.10/32');
    assert.equal(ip.parent.id, inner.id);
    const ip2 = await address('10.50.7.1/16');
    assert.equal(ip2.parent.id, outer.id, 'mask length plays no part');
    const mid = await prefix('10.50.0.0/20');
    assert.equal(mid.parent.id, outer.id);
    assert.equal(await parentOf(P, inner.id), mid.id);
    assert.equal(await parentOf(IP, ip2.id), mid.id);
    assert.equal(await parentOf(IP, ip.id), inner.id);
  });

  it('should release children that no longer fit when a prefix is resized', async () => {
    const outer = await prefix('10.60.0.0/16');
    const mid = await prefix('10.60.0.0/23');
    const low = await prefix('10.60.0.0/24');
    const high = await prefix('10.60.1.0/24');
    const ip = await address('10.60.1.200/24');
    assert.equal(ip.parent.id, high.id);
    const res = await t.call('PATCH', `${P}${mid.id}/`, { prefix: '10.60.0.0/25' });
    assert.equal(res.status, 200, res.raw);
    assert.equal(res.body.parent.id, low.id, 'the resized prefix now sits inside its former child');
    assert.equal(await parentOf(P, low.id), outer.id);
    assert.equal(await parentOf(P, high.id), outer.id);
    assert.equal(await parentOf(IP, ip.id), high.id);
  });

  it('should refuse a resize that would leave addresses without a prefix', async () => {
    const lone = await prefix('11.70.0.0/24');
    await address('11.70.0.9/24');
    await address('11.70.0.5/24');
    const res = await t.call('PATCH', `${P}${lone.id}/`, { prefix: '11.71.0.0/24' });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { __all__: ['2 existing IP addresses (including 11.70.0.5) would no longer have a valid parent Prefix after this change.'] });
    assert.equal((await t.call('GET', `${P}${lone.id}/`)).body.prefix, '11.70.0.0/24', 'nothing changed');
  });

  it('should hand children to the parent on delete', async () => {
    const outer = await prefix('10.80.0.0/16');
    const inner = await prefix('10.80.1.0/24');
    const leaf = await prefix('10.80.1.0/26');
    const ip = await address('10.80.1.100/24');
    assert.equal((await t.call('DELETE', `${P}${inner.id}/`)).status, 204);
    assert.equal(await parentOf(P, leaf.id), outer.id);
    assert.equal(await parentOf(IP, ip.id), outer.id);
  });

  it('should refuse with 409 to delete a root prefix holding addresses, and change nothing', async () => {
    const root = await prefix('12.90.0.0/24');
    const child = await prefix('12.90.0.0/25');
    const ip = await address('12.90.0.200/24');
    const res = await t.call('DELETE', `${P}${root.id}/`);
    assert.equal(res.status, 409);
    assert.match(res.body.detail, new RegExp(`^Unable to delete object\\. 1 dependent objects were found: 12\\.90\\.0\\.200/24 \\(${ip.id}\\)$`));
    assert.equal((await t.call('GET', `${P}${root.id}/`)).status, 200);
    assert.equal(await parentOf(P, child.id), root.id);
    assert.equal((await t.call('DELETE', `${P}${child.id}/`)).status, 204, 'a child with a parent may go; its addresses move up');
  });

  it('should delete a root prefix whose addresses sit under a child prefix', async () => {
    const root = await prefix('13.91.0.0/16');
    const child = await prefix('13.91.1.0/24');
    const ip = await address('13.91.1.1/24');
    assert.equal((await t.call('DELETE', `${P}${root.id}/`)).status, 204);
    assert.equal(await parentOf(P, child.id), null);
    assert.equal(await parentOf(IP, ip.id), child.id);
  });

  it('should keep a supplied parent from overriding the computed one', async () => {
    const a = await prefix('10.95.0.0/16');
    const b = await prefix('10.96.0.0/16');
    const c = await prefix('10.95.1.0/24', { parent: b.id });
    assert.equal(c.parent.id, a.id);
    const patched = await t.call('PATCH', `${P}${c.id}/`, { parent: b.id, description: 'x' });
    assert.equal(patched.body.parent.id, a.id);
  });
});

describe('IP address placement', () => {
  it('should need a namespace or a parent, and a containing prefix', async () => {
    const none = await t.call('POST', IP, { address: '10.1.1.1/24', status: 'Active' });
    assertRefused(none, 400, { __all__: ['One of parent or namespace must be provided'] });
    const nowhere = await t.call('POST', IP, { address: '203.0.113.1/24', status: 'Active', namespace: 'Global' });
    assert.equal(nowhere.status, 400);
    assert.deepEqual(nowhere.body, { namespace: ['No suitable parent Prefix for 203.0.113.1 exists in Namespace Global'] });
  });

  it('should derive the namespace from a given parent and refuse a parent that is not the closest', async () => {
    const ns = await create(t, '/api/ipam/namespaces/', { name: 'green' });
    const p16 = await prefix('10.1.0.0/16', { namespace: ns.id });
    const p24 = await prefix('10.1.1.0/24', { namespace: ns.id });
    const ok = await create(t, IP, { address: '10.1.1.9/24', status: 'Active', parent: p24.id });
    assert.equal(ok.parent.id, p24.id);
    const wrong = await t.call('POST', IP, { address: '10.1.1.10/24', status: 'Active', parent: p16.id });
    assert.equal(wrong.status, 400);
    assert.deepEqual(wrong.body, { parent: ['10.1.0.0/16 cannot be assigned as the parent of 10.1.1.10/24.  In namespace green, the expected parent would be 10.1.1.0/24.'] });
  });

  it('should look the parent up in a given namespace, where a supplied parent must be the closest', async () => {
    await create(t, '/api/ipam/namespaces/', { name: 'teal' });
    const tealP = await prefix('10.2.0.0/16', { namespace: 'teal' });
    const globalP = await prefix('10.2.0.0/16');
    const both = await create(t, IP, { address: '10.2.0.1/16', status: 'Active', namespace: 'teal', parent: tealP.id });
    assert.equal(both.parent.id, tealP.id);
    const other = await t.call('POST', IP, { address: '10.2.0.2/16', status: 'Active', namespace: 'teal', parent: globalP.id });
    assert.equal(other.status, 400);
    assert.deepEqual(other.body, { parent: ['10.2.0.0/16 cannot be assigned as the parent of 10.2.0.2/16.  In namespace teal, the expected parent would be 10.2.0.0/16.'] });
    const ignored = await t.call('PATCH', `${IP}${both.id}/`, { namespace: 'Global', description: 'x' });
    assert.equal(ignored.status, 200, ignored.raw);
    assert.equal(ignored.body.parent.id, tealP.id, 'namespace is ignored on update');
    const moved = await t.call('PATCH', `${IP}${both.id}/`, { parent: globalP.id });
    assert.equal(moved.status, 200, moved.raw);
    assert.equal(moved.body.parent.id, globalP.id, 'a new parent that is the closest of its namespace moves the address');
  });

  it('should allow one host per namespace whatever the mask, and the same host in another namespace', async () => {
    await prefix('198.51.100.0/24');
    await prefix('198.51.100.0/24', { namespace: blue.id });
    await address('198.51.100.7/24');
    const again = await t.call('POST', IP, { address: '198.51.100.7/32', status: 'Active', namespace: 'Global' });
    assertRefused(again, 400, { __all__: ['IP address with this Parent and Host already exists.'] });
    const other = await t.call('POST', IP, { address: '198.51.100.7/32', status: 'Active', namespace: blue.id });
    assert.equal(other.status, 201);
    assert.equal(other.body.natural_slug, `blue_198-51-100-7_${other.body.id.slice(0, 4)}`);
    assert.equal((await t.call('GET', `${IP}blue;198.51.100.7/`)).body.id, other.body.id);
  });

  it('should place an IPv4 host under a /32 prefix of itself, created before or after the address', async () => {
    const net = await prefix('198.18.7.0/24');
    const host = await prefix('198.18.7.5/32');
    const ip = await address('198.18.7.5/24');
    assert.equal(ip.parent.id, host.id, 'the /32 is the closest prefix holding the host');
    const later = await address('198.18.7.6/24');
    assert.equal(later.parent.id, net.id);
    const adopter = await prefix('198.18.7.6/32');
    assert.equal(await parentOf(IP, later.id), adopter.id, 'a /32 created after the address adopts it');
    assert.equal(await parentOf(P, adopter.id), net.id);
  });

  it('should place IPv6 hosts, /128 under a /128 prefix, and keep the host fixed', async () => {
    await prefix('2001:db8:1::/48');
    const host = await prefix('2001:db8:1::5/128');
    const ip = await address('2001:db8:1::5/64');
    assert.equal(ip.parent.id, host.id);
    assert.equal(ip.host, '2001:db8:1::5');
    assert.deepEqual(ip.family, { value: 6, label: 'IPv6' });
    const mask = await t.call('PATCH', `${IP}${ip.id}/`, { address: '2001:db8:1::5/48' });
    assert.equal(mask.status, 200);
    assert.equal(mask.body.address, '2001:db8:1::5/48');
    const moved = await t.call('PATCH', `${IP}${ip.id}/`, { address: '2001:db8:1::6/48' });
    assert.equal(moved.status, 400);
    assert.deepEqual(moved.body, { __all__: ['Host address cannot be changed once created'] });
  });

  it('should allow SLAAC only for IPv6 and check DNS name characters', async () => {
    await prefix('100.64.0.0/10');
    const slaac = await t.call('POST', IP, { address: '100.64.0.1/10', status: 'Active', namespace: 'Global', type: 'slaac' });
    assertRefused(slaac, 400, { type: ['Only IPv6 addresses can be assigned SLAAC type'] });
    const dns = await t.call('POST', IP, { address: '100.64.0.2/10', status: 'Active', namespace: 'Global', dns_name: 'bad name!' });
    assertRefused(dns, 400, { dns_name: ['Only alphanumeric characters, hyphens, periods, and underscores are allowed in DNS names'] });
  });

  it('should create none of a list when one address has no prefix', async () => {
    await prefix('100.100.0.0/24');
    const res = await t.call('POST', IP, [
      { address: '100.100.0.1/24', status: 'Active', namespace: 'Global' },
      { address: '100.200.0.1/24', status: 'Active', namespace: 'Global' },
    ]);
    assert.equal(res.status, 400);
    assert.deepEqual(res.body[0], {});
    assert.equal((await t.call('GET', `${IP}?address=100.100.0.1`)).body.count, 0);
  });
});
