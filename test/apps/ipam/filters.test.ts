import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import { assertRefused } from '../../helpers/refusals.js';
import type { TestApp } from '../../helpers/app.js';

const P = '/api/ipam/prefixes/';
const IP = '/api/ipam/ip-addresses/';

let t: TestApp;
const px: Record<string, any> = {};
const ip: Record<string, any> = {};
let red: any;
let green: any;
let siteA: any;
let room: any;

/** Prefixes (CIDR text, sorted) or addresses matching a query string. */
async function match(path: string, query: string): Promise<string[]> {
  const res = await t.call('GET', `${path}?limit=0&${query}`);
  assert.equal(res.status, 200, `${query}: ${res.raw}`);
  return res.body.results.map((o: any) => (path === P ? `${o.prefix}${o.namespace.id === px.other?.namespace.id ? '@other' : ''}` : o.address)).sort();
}

before(async () => {
  t = await makeApp();
  const region = await create(t, '/api/dcim/location-types/', { name: 'Region', content_types: ['ipam.prefix', 'dcim.device'], nestable: true });
  siteA = await create(t, '/api/dcim/locations/', { name: 'A', location_type: region.id, status: 'Active' });
  room = await create(t, '/api/dcim/locations/', { name: 'A-room', location_type: region.id, status: 'Active', parent: siteA.id });
  const rtA = await create(t, '/api/ipam/route-targets/', { name: '65000:1' });
  red = await create(t, '/api/ipam/vrfs/', { name: 'red', rd: '65000:100', export_targets: [rtA.id] });
  green = await create(t, '/api/ipam/vrfs/', { name: 'green', rd: '65000:200', import_targets: [rtA.id] });
  const rir = await create(t, '/api/ipam/rirs/', { name: 'RFC1918', is_private: true });
  const vlan = await create(t, '/api/ipam/vlans/', { name: 'users', vid: 10, status: 'Active' });
  const other = await create(t, '/api/ipam/namespaces/', { name: 'other' });
  const specs: [string, string, Record<string, unknown>][] = [
    ['p8', '10.0.0.0/8', { type: 'container', rir: rir.id }],
    ['p16', '10.1.0.0/16', { location: room.id, description: 'campus core' }],
    ['p24', '10.1.1.0/24', { vlan: vlan.id }],
    ['p25', '10.1.1.128/25', { type: 'pool' }],
    ['v6', '2001:db8::/32', {}],
    ['v6_64', '2001:db8::/64', {}],
    ['other', '10.1.0.0/16', { namespace: other.id }],
  ];
  for (const [key, cidr, extra] of specs) px[key] = await create(t, P, { prefix: cidr, status: 'Active', ...extra });
  await create(t, '/api/ipam/vrf-prefix-assignments/', { vrf: red.id, prefix: px.p24.id });
  const addrs: [string, string][] = [['a', '10.1.1.7/24'], ['b', '10.1.1.200/32'], ['c', '10.1.2.1/16'], ['d', '2001:db8::1/64'], ['e', '10.9.9.9/8']];
  for (const [key, address] of addrs) ip[key] = await create(t, IP, { address, status: 'Active', namespace: 'Global', dns_name: `host-${key}.example.com` });
  await t.call('PATCH', `${IP}${ip.b.id}/`, { nat_inside: ip.a.id });
});
after(() => t.close());

describe('GET /api/ipam/prefixes/ network lookups (spec)', () => {
  it('should match exact prefixes, several values ORed, and negate with __n', async () => {
    assert.deepEqual(await match(P, 'prefix=10.1.0.0/16&namespace=Global'), ['10.1.0.0/16']);
    assert.deepEqual(await match(P, 'prefix=10.1.1.0/24&prefix=2001:db8::/32'), ['10.1.1.0/24', '2001:db8::/32']);
    assert.deepEqual(await match(P, 'prefix__n=10.0.0.0/8&namespace=Global&ip_version=4'), ['10.1.0.0/16', '10.1.1.0/24', '10.1.1.128/25']);
  });

  it('should apply net_contained, net_contained_or_equal, net_contains and net_contains_or_equals', async () => {
    assert.deepEqual(await match(P, 'prefix__net_contained=10.1.0.0/16&namespace=Global'), ['10.1.1.0/24', '10.1.1.128/25']);
    assert.deepEqual(await match(P, 'prefix__net_contained_or_equal=10.1.0.0/16&namespace=Global'), ['10.1.0.0/16', '10.1.1.0/24', '10.1.1.128/25']);
    assert.deepEqual(await match(P, 'prefix__net_contains=10.1.1.0/24&namespace=Global'), ['10.0.0.0/8', '10.1.0.0/16']);
    assert.deepEqual(await match(P, 'prefix__net_contains_or_equals=10.1.1.0/24&namespace=Global'), ['10.0.0.0/8', '10.1.0.0/16', '10.1.1.0/24']);
    assert.deepEqual(await match(P, 'prefix__net_contains=2001:db8::/64'), ['2001:db8::/32']);
  });

  it('should apply net_equals, net_host, net_host_contained, net_in and family', async () => {
    assert.deepEqual(await match(P, 'prefix__net_equals=2001:db8::/64'), ['2001:db8::/64']);
    assert.deepEqual(await match(P, 'prefix__net_host=10.1.1.130&namespace=Global'), ['10.0.0.0/8', '10.1.0.0/16', '10.1.1.0/24', '10.1.1.128/25']);
    assert.deepEqual(await match(P, 'prefix__net_host_contained=10.1.1.0/24'), ['10.1.1.0/24', '10.1.1.128/25']);
    assert.deepEqual(await match(P, 'prefix__net_in=10.1.1.128/25,2001:db8::/48'), ['10.1.1.128/25', '2001:db8::/32', '2001:db8::/64']);
    assert.deepEqual(await match(P, 'prefix__family=6'), ['2001:db8::/32', '2001:db8::/64']);
    assert.deepEqual(await match(P, 'family=6'), ['2001:db8::/32', '2001:db8::/64']);
  });

  it('should filter on network and broadcast', async () => {
    assert.deepEqual(await match(P, 'network=10.1.0.0'), ['10.1.0.0/16', '10.1.0.0/16@other']);
    assert.deepEqual(await match(P, 'network__net_contained=10.1.0.0/16&namespace=Global'), ['10.1.1.0/24', '10.1.1.128/25']);
    assert.deepEqual(await match(P, 'broadcast=10.1.1.255'), ['10.1.1.0/24', '10.1.1.128/25']);
  });

  it('should answer 400 naming the parameter for malformed values', async () => {
    for (const [param, value] of [['prefix', '10.0.0.300/8'], ['prefix__net_contained', 'x'], ['within', '10.0.0.0/40'], ['family', '5'], ['ip_version', 'abc'], ['prefix_length', 'abc']]) {
      const res = await t.call('GET', `${P}?${param}=${value}`);
      assert.equal(res.status, 400, `${param}=${value}`);
      assert.deepEqual(Object.keys(res.body), [param]);
    }
  });
});

describe('GET /api/ipam/prefixes/ reference filters', () => {
  it('should apply within, within_include and contains (CIDR or bare address)', async () => {
    assert.deepEqual(await match(P, 'within=10.1.0.0/16&namespace=Global'), ['10.1.1.0/24', '10.1.1.128/25']);
    assert.deepEqual(await match(P, 'within_include=10.1.1.0/24'), ['10.1.1.0/24', '10.1.1.128/25']);
    assert.deepEqual(await match(P, 'contains=10.1.1.0/25&namespace=Global'), ['10.0.0.0/8', '10.1.0.0/16', '10.1.1.0/24']);
    assert.deepEqual(await match(P, 'contains=2001:db8::1'), ['2001:db8::/32', '2001:db8::/64']);
  });

  it('should filter on ip_version, prefix_length and its lookups, type, namespace and parent', async () => {
    assert.deepEqual(await match(P, 'ip_version=6'), ['2001:db8::/32', '2001:db8::/64']);
    assert.deepEqual(await match(P, 'prefix_length=16'), ['10.1.0.0/16', '10.1.0.0/16@other']);
    assert.deepEqual(await match(P, 'prefix_length__gte=25&ip_version=4'), ['10.1.1.128/25']);
    assert.deepEqual(await match(P, 'type=pool'), ['10.1.1.128/25']);
    assert.deepEqual(await match(P, 'namespace=other'), ['10.1.0.0/16@other']);
    assert.deepEqual(await match(P, `parent=${px.p16.id}`), ['10.1.1.0/24']);
  });

  it('should filter on VRFs by id, RD or name, and on present_in_vrf through route targets', async () => {
    assert.deepEqual(await match(P, `vrf=${red.id}`), ['10.1.1.0/24']);
    assert.deepEqual(await match(P, 'vrfs=65000:100'), ['10.1.1.0/24']);
    assert.deepEqual(await match(P, 'vrfs=red'), ['10.1.1.0/24']);
    assert.deepEqual(await match(P, 'present_in_vrf=65000:200'), ['10.1.1.0/24'], 'green imports what red exports');
    assert.deepEqual(await match(P, `present_in_vrf_id=${red.id}`), ['10.1.1.0/24']);
    assert.deepEqual(await match(P, `present_in_vrf_id=${green.id}&vrfs=${green.id}`), []);
    assertRefused(await t.call('GET', `${P}?vrfs=nope`), 400, { vrfs: ['Select a valid choice. nope is not one of the available choices.'] });
  });

  it('should filter on locations (with descendants), VLAN, RIR and q', async () => {
    assert.deepEqual(await match(P, `location=${siteA.id}`), ['10.1.0.0/16']);
    assert.deepEqual(await match(P, 'locations=A-room'), ['10.1.0.0/16']);
    assert.deepEqual(await match(P, `vlan_id=${px.p24.vlan.id}`), ['10.1.1.0/24']);
    assert.deepEqual(await match(P, 'vlan_vid=10'), ['10.1.1.0/24']);
    assert.deepEqual(await match(P, 'has_rir=true'), ['10.0.0.0/8']);
    assert.deepEqual(await match(P, 'rir=RFC1918'), ['10.0.0.0/8']);
    assert.deepEqual(await match(P, 'q=campus'), ['10.1.0.0/16']);
    assert.deepEqual(await match(P, 'q=10.1.1.130&namespace=Global'), ['10.0.0.0/8', '10.1.0.0/16', '10.1.1.0/24', '10.1.1.128/25']);
    // As the reference, the mask is ignored and a partial address widened: 10.1.0.0/16 searches 10.1.0.0/32.
    assert.deepEqual(await match(P, 'q=10.1.0.0/16&namespace=Global'), ['10.0.0.0/8', '10.1.0.0/16']);
    assert.deepEqual(await match(P, 'q=10.1&namespace=Global'), ['10.0.0.0/8', '10.1.0.0/16', '10.1.1.0/24', '10.1.1.128/25']);
    assert.deepEqual(await match(P, 'q=10.1.1.&namespace=Global'), ['10.0.0.0/8', '10.1.0.0/16', '10.1.1.0/24', '10.1.1.128/25']);
    assert.deepEqual(await match(P, 'q=11&namespace=Global'), []);
  });
});

describe('GET /api/ipam/ip-addresses/ filters', () => {
  it('should match address with or without mask, host, and the reference prefix filter', async () => {
    assert.deepEqual(await match(IP, 'address=10.1.1.7'), ['10.1.1.7/24']);
    assert.deepEqual(await match(IP, 'address=10.1.1.7/24&address=10.9.9.9/8'), ['10.1.1.7/24', '10.9.9.9/8']);
    assert.deepEqual(await match(IP, 'address=10.1.1.7/32'), []);
    assert.deepEqual(await match(IP, 'host=2001:db8::1'), ['2001:db8::1/64']);
    assert.deepEqual(await match(IP, 'prefix=10.1.0.0/16'), ['10.1.1.200/32', '10.1.1.7/24', '10.1.2.1/16']);
  });

  it('should apply the spec network lookups on address and host', async () => {
    assert.deepEqual(await match(IP, 'address__net_host_contained=10.1.1.0/24'), ['10.1.1.200/32', '10.1.1.7/24']);
    assert.deepEqual(await match(IP, 'host__net_host_contained=2001:db8::/32'), ['2001:db8::1/64']);
    assert.deepEqual(await match(IP, 'address__net_in=10.1.1.128/25,2001:db8::/64'), ['10.1.1.200/32', '2001:db8::1/64']);
    assert.deepEqual(await match(IP, 'address__net_contained=10.1.0.0/16'), ['10.1.1.200/32', '10.1.1.7/24']);
    assert.deepEqual(await match(IP, 'address__net_contained_or_equal=10.1.0.0/16'), ['10.1.1.200/32', '10.1.1.7/24', '10.1.2.1/16']);
    assert.deepEqual(await match(IP, 'address__net_contains=10.1.1.0/26'), ['10.1.1.7/24', '10.1.2.1/16', '10.9.9.9/8']);
    assert.deepEqual(await match(IP, 'address__net_contains_or_equals=10.1.1.0/24'), ['10.1.1.7/24', '10.1.2.1/16', '10.9.9.9/8']);
    assert.deepEqual(await match(IP, 'address__net_equals=10.1.1.7/24'), ['10.1.1.7/24']);
    assert.deepEqual(await match(IP, 'address__net_host=10.1.1.9'), ['10.1.1.7/24', '10.1.2.1/16', '10.9.9.9/8']);
    assert.deepEqual(await match(IP, 'address__family=6'), ['2001:db8::1/64']);
    assert.deepEqual(await match(IP, 'address__n=10.1.1.7&ip_version=4'), ['10.1.1.200/32', '10.1.2.1/16', '10.9.9.9/8']);
  });

  it('should filter on mask_length lookups, ip_version, family, namespace, parent and q', async () => {
    assert.deepEqual(await match(IP, 'mask_length=24'), ['10.1.1.7/24']);
    assert.deepEqual(await match(IP, 'mask_length__gt=24'), ['10.1.1.200/32', '2001:db8::1/64']);
    assert.deepEqual(await match(IP, 'ip_version=6'), ['2001:db8::1/64']);
    assert.deepEqual(await match(IP, 'family=4&mask_length__lte=8'), ['10.9.9.9/8']);
    assert.equal((await match(IP, 'namespace=Global')).length, 5);
    assert.deepEqual(await match(IP, 'namespace=other'), []);
    assert.deepEqual(await match(IP, `parent=${px.p25.id}`), ['10.1.1.200/32']);
    assert.deepEqual(await match(IP, 'q=host-c'), ['10.1.2.1/16']);
    // The reference's address search: the mask is ignored, a partial address is the network its parts fix.
    assert.deepEqual(await match(IP, 'q=10.1.1'), ['10.1.1.200/32', '10.1.1.7/24']);
    assert.deepEqual(await match(IP, 'q=10.1.1.0/24'), []);
    assert.deepEqual(await match(IP, 'q=10.1.1.7/16'), ['10.1.1.7/24']);
    assert.deepEqual(await match(IP, 'q=10'), ['10.1.1.200/32', '10.1.1.7/24', '10.1.2.1/16', '10.9.9.9/8']);
    assert.deepEqual(await match(IP, 'q=2001:db8::'), ['2001:db8::1/64']);
    assert.deepEqual(await match(IP, 'q=2001:db8'), ['2001:db8::1/64']);
  });

  it('should filter on the parent prefix VRFs and the spec vrf field', async () => {
    assert.deepEqual(await match(IP, `vrf=${red.id}`), ['10.1.1.7/24']);
    assert.deepEqual(await match(IP, 'vrfs=65000:100'), ['10.1.1.7/24']);
    assert.deepEqual(await match(IP, 'present_in_vrf=65000:200'), ['10.1.1.7/24']);
    assert.deepEqual(await match(IP, `present_in_vrf_id=${red.id}`), ['10.1.1.7/24']);
  });

  it('should filter on NAT and interface assignments', async () => {
    assert.deepEqual(await match(IP, 'has_nat_inside=true'), ['10.1.1.200/32']);
    assert.deepEqual(await match(IP, `nat_inside=${ip.a.id}`), ['10.1.1.200/32']);
    const maker = await create(t, '/api/dcim/manufacturers/', { name: 'acme' });
    const type = await create(t, '/api/dcim/device-types/', { manufacturer: maker.id, model: 'm1' });
    const role = await create(t, '/api/extras/roles/', { name: 'router', content_types: ['dcim.device'] });
    const device = await create(t, '/api/dcim/devices/', { name: 'r1', device_type: type.id, role: role.id, status: 'Active', location: siteA.id });
    const iface = await create(t, '/api/dcim/interfaces/', { device: device.id, name: 'eth0', type: '1000base-t', status: 'Active' });
    await create(t, '/api/ipam/ip-address-to-interface/', { ip_address: ip.d.id, interface: iface.id });
    assert.deepEqual(await match(IP, 'device=r1'), ['2001:db8::1/64']);
    assert.deepEqual(await match(IP, `device_id=${device.id}`), ['2001:db8::1/64']);
    assert.deepEqual(await match(IP, 'has_interface_assignments=true'), ['2001:db8::1/64']);
    assert.deepEqual(await match(IP, `interfaces=${iface.id}`), ['2001:db8::1/64']);
    assert.equal((await match(IP, 'has_interface_assignments=false')).length, 4);
    const got = await t.call('GET', `${IP}${ip.d.id}/`);
    assert.deepEqual(got.body.interfaces.map((i: any) => i.id), [iface.id]);
  });

  it('should answer 400 naming the parameter for malformed values', async () => {
    for (const [param, value] of [['address', '10.0.0.300'], ['prefix', '10.0.0.0/99'], ['mask_length', 'abc'], ['host__net_in', '1.2.3'], ['device_id', 'x']]) {
      const res = await t.call('GET', `${IP}?${param}=${value}`);
      assert.equal(res.status, 400, `${param}=${value}`);
      assert.deepEqual(Object.keys(res.body), [param]);
    }
  });
});
