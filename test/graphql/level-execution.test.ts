import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { execute, parse } from 'graphql';
import { executeByLevel } from '../../src/graphql/execute-by-level.js';
import { GqlContext } from '../../src/graphql/resolve/context.js';
import { currentSchema } from '../../src/graphql/schema/schema-cache.js';
import { countStatements, create, makeApp } from '../helpers/app.js';
import type { RequestContext } from '../../src/ops/services.js';
import type { TestApp } from '../helpers/app.js';

let t: TestApp;
const rc: RequestContext = { actor: { id: 'x', username: 'admin', is_superuser: true, is_active: true, permissions: [] }, requestId: 'level', baseUrl: 'http://localhost', routeName: 'graphql-api' };

before(async () => {
  t = await makeApp();
  const site = await create(t, '/api/dcim/location-types/', { name: 'Site', content_types: ['dcim.device'] });
  const [ams, nyc] = await create(t, '/api/dcim/locations/', [{ name: 'ams', location_type: site.id, status: 'Active' }, { name: 'nyc', location_type: site.id, status: 'Active' }]);
  const maker = await create(t, '/api/dcim/manufacturers/', { name: 'Arista' });
  const model = await create(t, '/api/dcim/device-types/', { model: 'DCS-7280', manufacturer: maker.id });
  const role = await create(t, '/api/extras/roles/', { name: 'edge', content_types: ['dcim.device'] });
  const eos = await create(t, '/api/dcim/platforms/', { name: 'eos', network_driver: 'arista_eos' });
  await create(t, '/api/extras/tags/', [{ name: 'gold', content_types: ['dcim.device'] }, { name: 'blue', content_types: ['dcim.device'] }]);
  const devices = await create(t, '/api/dcim/devices/', [
    { name: 'ams-1', device_type: model.id, role: role.id, location: ams.id, status: 'Active', platform: eos.id, tags: [{ name: 'gold' }, { name: 'blue' }] },
    { name: 'ams-2', device_type: model.id, role: role.id, location: ams.id, status: 'Active', tags: [{ name: 'blue' }] },
    { name: 'nyc-1', device_type: model.id, role: role.id, location: nyc.id, status: 'Active', platform: eos.id },
  ]);
  const ifaces = await create(t, '/api/dcim/interfaces/', devices.flatMap((d: { id: string }) => ['Ethernet2', 'Ethernet1', 'Management1'].map((name) => ({ device: d.id, name, type: '1000base-t', status: 'Active', ...(name === 'Ethernet1' ? { mode: 'access' } : {}) }))));
  const namespace = (await t.call('GET', '/api/ipam/namespaces/?name=Global')).body.results[0].id;
  await create(t, '/api/ipam/prefixes/', { prefix: '10.52.0.0/16', namespace, status: 'Active' });
  const ips = await create(t, '/api/ipam/ip-addresses/', [{ address: '10.52.0.9/24', namespace, status: 'Active' }, { address: '10.52.0.1/24', namespace, status: 'Active' }]);
  await create(t, '/api/ipam/ip-address-to-interface/', [{ ip_address: ips[0].id, interface: ifaces[0].id }, { ip_address: ips[1].id, interface: ifaces[0].id }, { ip_address: ips[1].id, interface: ifaces[4].id }]);
  const cable = await create(t, '/api/dcim/cables/', { termination_a_type: 'dcim.interface', termination_a_id: ifaces[1].id, termination_b_type: 'dcim.interface', termination_b_id: ifaces[4].id, status: 'Connected' });
  assert.ok(cable.id);
});
after(() => t.close());

/** The answer of each executor, each with a context of its own; null when the level executor gives up. */
async function both(query: string, variableValues: Record<string, unknown> = {}) {
  const schema = await currentSchema(t.app.services);
  const context = () => new GqlContext(t.app.services, rc, { max: 10_000, used: 0 });
  const args = { schema, document: parse(query), variableValues };
  const byLevel = await executeByLevel({ ...args, contextValue: context() });
  const reference = await execute({ ...args, contextValue: context() });
  return { byLevel: byLevel && JSON.stringify(byLevel), reference: JSON.stringify(reference) };
}

const PLAIN = [
  '{ devices { name location { name } platform { name network_driver } tags { name } interfaces { name ip_addresses { address } } } }',
  'query Q($n: Int, $t: Boolean!) { devices(limit: $n, offset: 1) { __typename nm: name ...D role @include(if: $t) { name } platform @skip(if: $t) { name } } } fragment D on DeviceType { status { name } location { ... on LocationType { name devices(limit: 1) { name } } } }',
  '{ devices(location: "ams") { name interfaces(limit: 2, offset: 1) { name mode type device { name } } a: interfaces(name: "Management1") { id } } }',
  '{ ip_addresses { address interfaces { name device { name } } } locations { name devices { name tags { name } } } }',
  '{ interfaces(cable__isnull: false) { name cable_peer { __typename ... on InterfaceType { name device { name } } } cable_peer_interface { name } } }',
];

describe('GraphQL: the level executor', () => {
  it('should answer plain queries (nested, filtered, paginated, fragments, unions) exactly as graphql-js\'s executor does', async () => {
    for (const query of PLAIN) {
      const { byLevel, reference } = await both(query, { n: 2, t: true });
      assert.ok(byLevel, `gave up on ${query}`);
      assert.equal(byLevel, reference, query);
    }
  });

  it('should leave queries with field errors to graphql-js (its errors with their paths, data beside them)', async () => {
    const { byLevel, reference } = await both('{ devices { name interfaces(limit: -1) { name } } }');
    assert.equal(byLevel, null);
    const res = await t.call('POST', '/api/graphql/', { query: '{ devices { name interfaces(limit: -1) { name } } }' });
    assert.equal(res.status, 200);
    assert.equal(JSON.stringify(res.body.errors[0].path), '["devices",0,"interfaces"]');
    assert.deepEqual(res.body.data, JSON.parse(reference).data);
  });

  it('should read each level of a nested query in a fixed number of statements, whatever its row count', async () => {
    const query = '{ devices { name location { name } tags { name } interfaces { name ip_addresses { address } } } }';
    const statements = await countStatements(t, '/api/graphql/', { method: 'POST', body: { query } });
    assert.ok(statements <= 7, `${statements} statements`);
  });
});
