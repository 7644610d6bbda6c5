import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { countStatements, create, makeApp } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';

let t: TestApp;

/** The issue's query: devices with their interfaces' addresses, location, tags and platform. */
const QUERY = 'query ($n: Int) { devices(limit: $n) { name interfaces { name ip_addresses { address } } location { name } tags { name } platform { network_driver } } }';

const statements = (n: number) => countStatements(t, '/api/graphql/', { method: 'POST', body: { query: QUERY, variables: { n } } });

before(async () => {
  t = await makeApp({ maxPageSize: 0 });
  const site = await create(t, '/api/dcim/location-types/', { name: 'Site', content_types: ['dcim.device'] });
  const location = await create(t, '/api/dcim/locations/', { name: 'ams', location_type: site.id, status: 'Active' });
  const maker = await create(t, '/api/dcim/manufacturers/', { name: 'Acme' });
  const model = await create(t, '/api/dcim/device-types/', { model: 'X1', manufacturer: maker.id });
  const role = await create(t, '/api/extras/roles/', { name: 'edge', content_types: ['dcim.device'] });
  const platform = await create(t, '/api/dcim/platforms/', { name: 'eos', network_driver: 'arista_eos' });
  await create(t, '/api/extras/tags/', [{ name: 'blue', content_types: ['dcim.device'] }, { name: 'red', content_types: ['dcim.device'] }]);
  const devices = await create(t, '/api/dcim/devices/', Array.from({ length: 1000 }, (_, i) => ({ name: `dev-${i}`, device_type: model.id, role: role.id, location: location.id, status: 'Active', platform: platform.id, tags: i % 2 ? ['blue'] : ['blue', 'red'] })));
  const interfaces = await create(t, '/api/dcim/interfaces/', devices.flatMap((d: { id: string }) => ['eth0', 'eth1'].map((name) => ({ device: d.id, name, type: '1000base-t', status: 'Active' }))));
  const namespace = (await t.call('GET', '/api/ipam/namespaces/?name=Global')).body.results[0].id;
  await create(t, '/api/ipam/prefixes/', { prefix: '10.0.0.0/16', namespace, status: 'Active' });
  const ips = await create(t, '/api/ipam/ip-addresses/', devices.map((_: unknown, i: number) => ({ address: `10.0.${Math.floor(i / 250)}.${(i % 250) + 1}/16`, namespace, status: 'Active' })));
  await create(t, '/api/ipam/ip-address-to-interface/', ips.map((ip: { id: string }, i: number) => ({ ip_address: ip.id, interface: interfaces[2 * i].id })));
});
after(() => t.close());

describe('POST /api/graphql/ statement count', () => {
  it('should answer the query for 1000 devices whole', async () => {
    const res = await t.call('POST', '/api/graphql/', { query: QUERY, variables: { n: 1000 } });
    assert.equal(res.status, 200, res.raw.slice(0, 500));
    assert.equal(res.body.errors, undefined);
    const devices = res.body.data.devices;
    assert.equal(devices.length, 1000);
    assert.equal(devices.flatMap((d: { interfaces: unknown[] }) => d.interfaces).length, 2000);
    const first = devices.find((d: { name: string }) => d.name === 'dev-0');
    assert.deepEqual(first.interfaces.map((i: { ip_addresses: { address: string }[] }) => i.ip_addresses.map((a) => a.address)), [['10.0.0.1/16'], []]);
    assert.deepEqual(first.tags.map((tag: { name: string }) => tag.name), ['blue', 'red']);
    assert.deepEqual([first.location.name, first.platform.network_driver], ['ams', 'arista_eos']);
  });

  it('should cost the same statements for 1000 devices as for 10', async () => {
    const small = await statements(10);
    const large = await statements(1000);
    assert.equal(large, small, `10 devices took ${small} statements, 1000 took ${large}`);
    assert.ok(large <= 8, `one statement per level and relation (and the list's count), got ${large}`);
  });
});
