import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { countStatements, create, makeApp } from '../../helpers/app.js';
import { cable, makeDevices, makeInterface } from './cable-topology.js';
import { assertRefused } from '../../helpers/refusals.js';
import type { TestApp } from '../../helpers/app.js';

let t: TestApp;
let d: Record<string, any>;
const ifs: Record<string, any> = {};

/** Statements executed by one GET (the response cache is bypassed). */
const countQueries = (url: string): Promise<number> => countStatements(t, url);

before(async () => {
  t = await makeApp();
  d = await makeDevices(t, ['a', 'b', 'c']);
  for (const [dev, name] of [['a', 'eth0'], ['b', 'eth0'], ['a', 'eth1'], ['c', 'eth1']]) ifs[`${dev}:${name}`] = await makeInterface(t, d[dev], name);
  await cable(t, ['dcim.interface', ifs['a:eth0']], ['dcim.interface', ifs['b:eth0']]);
  await cable(t, ['dcim.interface', ifs['c:eth1']], ['dcim.interface', ifs['a:eth1']], { status: 'Planned' });
  const con = await create(t, '/api/dcim/console-ports/', { device: d.a.id, name: 'con0' });
  const csp = await create(t, '/api/dcim/console-server-ports/', { device: d.c.id, name: 'ttyS1' });
  await cable(t, ['dcim.consoleport', con], ['dcim.consoleserverport', csp]);
  const psu = await create(t, '/api/dcim/power-ports/', { device: d.b.id, name: 'psu0' });
  const outlet = await create(t, '/api/dcim/power-outlets/', { device: d.c.id, name: 'out1' });
  await cable(t, ['dcim.poweroutlet', outlet], ['dcim.powerport', psu]);
});
after(() => t.close());

describe('GET /api/dcim/interface-connections/', () => {
  it('should list each connected pair once with both interfaces and reachability', async () => {
    const res = await t.call('GET', '/api/dcim/interface-connections/');
    assert.equal(res.status, 200, res.raw);
    assert.equal(res.body.count, 2);
    const pairs = res.body.results.map((r: any) => [r.interface_a.id, r.interface_b.id].sort().join());
    assert.deepEqual(pairs.sort(), [[ifs['a:eth0'].id, ifs['b:eth0'].id].sort().join(), [ifs['a:eth1'].id, ifs['c:eth1'].id].sort().join()].sort());
    const planned = res.body.results.find((r: any) => [r.interface_a.id, r.interface_b.id].includes(ifs['c:eth1'].id));
    assert.equal(planned.connected_endpoint_reachable, false);
  });

  it('should filter by the device of either end and by location', async () => {
    assert.equal((await t.call('GET', '/api/dcim/interface-connections/?device=b')).body.count, 1);
    assert.equal((await t.call('GET', `/api/dcim/interface-connections/?device_id=${d.a.id}`)).body.count, 2);
    assert.equal((await t.call('GET', '/api/dcim/interface-connections/?location=dc1')).body.count, 2);
    assertRefused(await t.call('GET', '/api/dcim/interface-connections/?device=nope'), 400, { device: ['Select a valid choice. nope is not one of the available choices.'] });
    assertRefused(await t.call('POST', '/api/dcim/interface-connections/', {}), 405, { detail: 'Method "POST" not allowed.' });
  });

  it('should answer OPTIONS with the reference name', async () => {
    const res = await t.call('OPTIONS', '/api/dcim/interface-connections/');
    assert.deepEqual(res.body, { name: 'Interfaces', description: '', renders: ['application/json', 'text/html', 'text/csv'], parses: ['application/json', 'text/csv'] });
  });
});

describe('GET /api/dcim/console-connections/ and power-connections/', () => {
  it('should list console and power ports whose path has a destination', async () => {
    const con = await t.call('GET', '/api/dcim/console-connections/');
    assert.equal(con.body.count, 1);
    assert.equal(con.body.results[0].connected_endpoint_type, 'dcim.consoleserverport');
    const power = await t.call('GET', '/api/dcim/power-connections/?device=b');
    assert.equal(power.body.count, 1);
    assert.equal(power.body.results[0].connected_endpoint_type, 'dcim.poweroutlet');
    assert.equal((await t.call('GET', '/api/dcim/power-connections/?device=a')).body.count, 0);
    assert.equal((await t.call('GET', '/api/dcim/console-connections/?name=con0')).body.count, 1);
  });

  it('should trace console and power ports and outlets', async () => {
    const outlet = (await t.call('GET', '/api/dcim/power-outlets/?name=out1')).body.results[0];
    const res = await t.call('GET', `/api/dcim/power-outlets/${outlet.id}/trace/`);
    assert.deepEqual(res.body[0].map((o: any) => o.object_type), ['dcim.poweroutlet', 'dcim.cable', 'dcim.powerport']);
  });
});

describe('GET /api/dcim/connected-device/', () => {
  it('should return the device at the far end of a peer interface', async () => {
    const res = await t.call('GET', '/api/dcim/connected-device/?peer_device=b&peer_interface=eth0');
    assert.equal(res.status, 200, res.raw);
    assert.equal(res.body.id, d.a.id);
    assert.equal(res.body.object_type, 'dcim.device');
  });

  it('should refuse a request without both parameters and 404 an unknown or loose interface', async () => {
    const missing = await t.call('GET', '/api/dcim/connected-device/?peer_device=b');
    assert.deepEqual([missing.status, missing.body], [400, { detail: 'Request must include "peer_device" and "peer_interface" filters.' }]);
    assert.equal((await t.call('GET', '/api/dcim/connected-device/?peer_device=b&peer_interface=nope')).status, 404);
    await makeInterface(t, d.b, 'eth9');
    assert.equal((await t.call('GET', '/api/dcim/connected-device/?peer_device=b&peer_interface=eth9')).status, 404);
  });
});

describe('circuit terminations as cable ends', () => {
  it('should trace across a circuit from one interface to the other', async () => {
    const provider = await create(t, '/api/circuits/providers/', { name: 'isp' });
    const type = await create(t, '/api/circuits/circuit-types/', { name: 'transit' });
    const circuit = await create(t, '/api/circuits/circuits/', { cid: 'c-1', provider: provider.id, circuit_type: type.id, status: 'Active' });
    const termA = await create(t, '/api/circuits/circuit-terminations/', { circuit: circuit.id, term_side: 'A', location: 'dc1' });
    const termZ = await create(t, '/api/circuits/circuit-terminations/', { circuit: circuit.id, term_side: 'Z', location: 'dc1' });
    const x = await makeInterface(t, d.b, 'wan0');
    const y = await makeInterface(t, d.c, 'wan0');
    assert.equal((await cable(t, ['dcim.interface', x], ['circuits.circuittermination', termA])).status, 201);
    const half = (await t.call('GET', `/api/dcim/interfaces/${x.id}/`)).body;
    assert.equal(half.connected_endpoint, null, 'the Z side has no cable yet');
    assert.equal((await cable(t, ['circuits.circuittermination', termZ], ['dcim.interface', y])).status, 201);
    const full = (await t.call('GET', `/api/dcim/interfaces/${x.id}/`)).body;
    assert.deepEqual([full.connected_endpoint_type, full.connected_endpoint.id, full.connected_endpoint_reachable], ['dcim.interface', y.id, true]);
    const trace = await t.call('GET', `/api/circuits/circuit-terminations/${termZ.id}/trace/`);
    assert.deepEqual(trace.body[0].map((o: any) => o.id), [termZ.id, trace.body[0][1].id, y.id]);
    const ct = (await t.call('GET', `/api/circuits/circuit-terminations/${termA.id}/`)).body;
    assert.equal(ct.cable_peer.id, x.id);
  });
});

describe('circuit terminations without a far end', () => {
  it('should end the path at the near termination until the circuit gets its other end', async () => {
    const provider = (await t.call('GET', '/api/circuits/providers/?name=isp')).body.results[0];
    const type = (await t.call('GET', '/api/circuits/circuit-types/?name=transit')).body.results[0];
    const circuit = await create(t, '/api/circuits/circuits/', { cid: 'c-2', provider: provider.id, circuit_type: type.id, status: 'Active' });
    const termA = await create(t, '/api/circuits/circuit-terminations/', { circuit: circuit.id, term_side: 'A', location: 'dc1' });
    const x = await makeInterface(t, d.a, 'wan2');
    await cable(t, ['dcim.interface', x], ['circuits.circuittermination', termA]);
    const endOf = async () => (await t.call('GET', `/api/dcim/interfaces/${x.id}/`)).body;
    assert.deepEqual([(await endOf()).connected_endpoint_type, (await endOf()).connected_endpoint?.id], ['circuits.circuittermination', termA.id]);
    const termZ = await create(t, '/api/circuits/circuit-terminations/', { circuit: circuit.id, term_side: 'Z', location: 'dc1' });
    assert.equal((await endOf()).connected_endpoint, null, 'the path now runs on to a Z end without a cable');
    assert.equal((await t.call('DELETE', `/api/circuits/circuit-terminations/${termZ.id}/`)).status, 204);
    assert.equal((await endOf()).connected_endpoint?.id, termA.id);
    const termAView = (await t.call('GET', `/api/circuits/circuit-terminations/${termA.id}/`)).body;
    assert.deepEqual([termAView.connected_endpoint?.id, termAView.connected_endpoint_reachable], [x.id, true]);
  });
});

describe('GET /api/dcim/interfaces/ query count', () => {
  it('should load cable peers and connected endpoints of a page in a fixed number of statements', async () => {
    for (let i = 0; i < 10; i += 1) {
      const [p, q] = [await makeInterface(t, d.a, `bulk${i}`), await makeInterface(t, d.b, `bulk${i}`)];
      await cable(t, ['dcim.interface', p], ['dcim.interface', q]);
    }
    for (const depth of [0, 1]) {
      const small = await countQueries(`/api/dcim/interfaces/?name__isw=bulk&depth=${depth}&limit=2`);
      const large = await countQueries(`/api/dcim/interfaces/?name__isw=bulk&depth=${depth}&limit=100`);
      assert.ok(large <= small, `depth ${depth}: limit=2 took ${small}, limit=100 took ${large}`);
    }
    const small = await countQueries('/api/dcim/interface-connections/?name__isw=bulk&limit=2');
    const large = await countQueries('/api/dcim/interface-connections/?name__isw=bulk&limit=100');
    assert.ok(large <= small, `connections: limit=2 took ${small}, limit=100 took ${large}`);
  });
});

describe('GET /api/dcim/', () => {
  it('should name the connection lists and the connected-device locator', async () => {
    const res = await t.call('GET', '/api/dcim/');
    for (const key of ['connected-device', 'console-connections', 'interface-connections', 'power-connections']) {
      assert.equal(res.body[key], `http://localhost:80/api/dcim/${key}/`);
    }
  });
});

describe('/api/dcim/cable-paths/', () => {
  it('should not be served: absent from the root, 404 on list, detail and OPTIONS', async () => {
    assert.equal((await t.call('GET', '/api/dcim/')).body['cable-paths'], undefined);
    const stored = await t.app.services.dialect.db.selectFrom('dcim_cablepath').select('id').execute();
    assert.ok(stored.length > 0, 'the paths are still stored');
    for (const method of ['GET', 'OPTIONS'] as const) {
      assert.equal((await t.call(method, '/api/dcim/cable-paths/')).status, 404, method);
      assert.equal((await t.call(method, `/api/dcim/cable-paths/${stored[0].id}/`)).status, 404, method);
    }
  });

  it('should be missing from the OpenAPI paths but stay a content type', async () => {
    const doc = (await t.call('GET', '/api/swagger.json')).body;
    assert.equal(Object.keys(doc.paths).filter((p) => p.includes('cable-path')).length, 0);
    assert.ok(doc.paths['/dcim/cables/']);
    const choices = (await t.call('OPTIONS', '/api/extras/notes/')).body.actions.POST.assigned_object_type.choices;
    assert.ok(choices.some((c: any) => c.value === 'dcim.cablepath'), 'reference lists dcim.cablepath among content types');
  });
});
