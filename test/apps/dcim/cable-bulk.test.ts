import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import { makeDevices } from './cable-topology.js';
import type { TestApp } from '../../helpers/app.js';

/**
 * Bulk cable writes cost a fixed number of statements whatever their size: ends, path tracing,
 * stored paths and change records are read and written per batch (a round of reads per step of
 * the longest path), not per cable. Also the results of batches that the one-cable tests leave open.
 */

let t: TestApp;
let d: Record<string, any>;
let location: any;
let provider: any;
let circuitType: any;
let serial = 0;

const I = 'dcim.interface';
const CT = 'circuits.circuittermination';

/** Statements executed by one request, which must answer `status`. */
async function counted(method: 'POST' | 'PATCH' | 'DELETE', path: string, body: unknown, status: number): Promise<{ statements: number; body: any }> {
  const dialect = t.app.services.dialect;
  const start = dialect.queryCount();
  const res = await t.call(method, path, body);
  assert.equal(res.status, status, res.raw.slice(0, 500));
  return { statements: dialect.queryCount() - start, body: res.body };
}

const link = (a: [string, any], b: [string, any], status = 'Connected') => ({
  termination_a_type: a[0], termination_a_id: a[1].id, termination_b_type: b[0], termination_b_id: b[1].id, status,
});

/** `n` new interfaces on a device (one request). */
function interfaces(device: any, n: number): Promise<any[]> {
  serial += 1;
  return create(t, '/api/dcim/interfaces/', Array.from({ length: n }, (_, i) => ({ device: device.id, name: `b${serial}-${i}`, type: '1000base-t', status: 'Active' })));
}

/** `n` circuits with their A terminations (and Z terminations unless `zSides` is false). */
async function circuits(n: number, zSides = true): Promise<{ a: any[]; z: any[]; circuits: any[] }> {
  serial += 1;
  const made = await create(t, '/api/circuits/circuits/', Array.from({ length: n }, (_, i) => ({ cid: `c${serial}-${i}`, provider: provider.id, circuit_type: circuitType.id, status: 'Active' })));
  const side = (s: string) => create(t, '/api/circuits/circuit-terminations/', made.map((c: any) => ({ circuit: c.id, term_side: s, location: location.id })));
  return { a: await side('A'), z: zSides ? await side('Z') : [], circuits: made };
}

/**
 * `units` times five cables, each unit two paths: x - front | rear = rear | front - y over
 * two panels, and v - circuit A, circuit Z - w.
 */
async function chains(units: number) {
  serial += 1;
  const [x, y, v, w] = [await interfaces(d.a, units), await interfaces(d.b, units), await interfaces(d.a, units), await interfaces(d.b, units)];
  const rears = (device: any) => create(t, '/api/dcim/rear-ports/', x.map((_, i) => ({ device: device.id, name: `r${serial}-${i}`, type: '8p8c', positions: 1 })));
  const [r1, r2] = [await rears(d.p1), await rears(d.p2)];
  const fronts = (device: any, rs: any[]) => create(t, '/api/dcim/front-ports/', rs.map((r, i) => ({ device: device.id, name: `f${serial}-${i}`, type: '8p8c', rear_port: r.id, rear_port_position: 1 })));
  const [f1, f2] = [await fronts(d.p1, r1), await fronts(d.p2, r2)];
  const { a, z } = await circuits(units);
  const body = x.flatMap((_, i) => [
    link([I, x[i]], ['dcim.frontport', f1[i]]), link(['dcim.rearport', r1[i]], ['dcim.rearport', r2[i]]), link(['dcim.frontport', f2[i]], [I, y[i]]),
    link([I, v[i]], [CT, a[i]]), link([CT, z[i]], [I, w[i]]),
  ]);
  const typed = (type: string, list: any[]) => list.map((o) => `${type} ${o.id}`);
  const ends = [...typed(I, [...x, ...y, ...v, ...w]), ...typed('dcim.frontport', [...f1, ...f2]), ...typed('dcim.rearport', [...r1, ...r2]), ...typed(CT, [...a, ...z])];
  return { body, x, y, v, w, ends };
}

async function endpointOf(iface: any) {
  const got = (await t.call('GET', `/api/dcim/interfaces/${iface.id}/`)).body;
  return { cable: got.cable?.id ?? null, id: got.connected_endpoint?.id ?? null, reachable: got.connected_endpoint_reachable };
}

/** The change records of a request, as `action type id` strings (sorted). */
async function requestChanges(requestOf: string): Promise<string[]> {
  const own = (await t.call('GET', `/api/extras/object-changes/?changed_object_id=${requestOf}&limit=1`)).body.results[0];
  const all = (await t.call('GET', `/api/extras/object-changes/?request_id=${own.request_id}&limit=0`)).body.results;
  return all.map((r: any) => `${r.action.value} ${r.changed_object_type} ${r.changed_object_id}`).sort();
}

before(async () => {
  t = await makeApp({ maxPageSize: 0 });
  d = await makeDevices(t, ['a', 'b', 'p1', 'p2']);
  location = d.a.location;
  await t.call('PATCH', `/api/dcim/location-types/${(await t.call('GET', '/api/dcim/location-types/?name=Site')).body.results[0].id}/`, { content_types: ['dcim.device', CT] });
  provider = await create(t, '/api/circuits/providers/', { name: 'isp' });
  circuitType = await create(t, '/api/circuits/circuit-types/', { name: 'transit' });
});
after(() => t.close());

describe('bulk cable statement counts', () => {
  it('should create, re-status and delete 60 cables between interfaces with the statements of 10', async () => {
    const costs: Record<string, number[]> = { create: [], patch: [], delete: [] };
    for (const n of [10, 60]) {
      const [xs, ys] = [await interfaces(d.a, n), await interfaces(d.b, n)];
      const made = await counted('POST', '/api/dcim/cables/', xs.map((x, i) => link([I, x], [I, ys[i]])), 201);
      assert.deepEqual(await endpointOf(xs[n - 1]), { cable: made.body[n - 1].id, id: ys[n - 1].id, reachable: true });
      costs.create.push(made.statements);
      costs.patch.push((await counted('PATCH', '/api/dcim/cables/', made.body.map((c: any) => ({ id: c.id, status: 'Planned' })), 200)).statements);
      assert.deepEqual(await endpointOf(ys[0]), { cable: made.body[0].id, id: xs[0].id, reachable: false });
      costs.delete.push((await counted('DELETE', '/api/dcim/cables/', made.body.map((c: any) => ({ id: c.id })), 204)).statements);
      assert.deepEqual(await endpointOf(xs[3]), { cable: null, id: null, reachable: null });
    }
    for (const [op, [small, large]] of Object.entries(costs)) assert.ok(large <= small + 2, `${op}: 10 cables took ${small} statements, 60 took ${large}`);
  });

  it('should do the same for paths over front and rear ports and circuits built in one request', async () => {
    const costs: Record<string, number[]> = { create: [], patch: [], delete: [] };
    for (const units of [2, 12]) {
      const { body, x, y, v, w } = await chains(units);
      const made = await counted('POST', '/api/dcim/cables/', body, 201);
      costs.create.push(made.statements);
      for (const i of [0, units - 1]) {
        assert.deepEqual(await endpointOf(y[i]), { cable: made.body[5 * i + 2].id, id: x[i].id, reachable: true });
        assert.deepEqual(await endpointOf(v[i]), { cable: made.body[5 * i + 3].id, id: w[i].id, reachable: true });
      }
      const middles = made.body.filter((_: any, i: number) => i % 5 === 1 || i % 5 === 4);
      costs.patch.push((await counted('PATCH', '/api/dcim/cables/', middles.map((c: any) => ({ id: c.id, status: 'Planned' })), 200)).statements);
      assert.deepEqual(await endpointOf(x[1]), { cable: made.body[5].id, id: y[1].id, reachable: false });
      assert.deepEqual(await endpointOf(w[0]), { cable: made.body[4].id, id: v[0].id, reachable: false });
      costs.delete.push((await counted('DELETE', '/api/dcim/cables/', made.body.map((c: any) => ({ id: c.id })), 204)).statements);
      assert.deepEqual(await endpointOf(x[0]), { cable: null, id: null, reachable: null });
    }
    for (const [op, [small, large]] of Object.entries(costs)) assert.ok(large <= small + 2, `${op}: 10 cables took ${small} statements, 60 took ${large}`);
  });

  it('should extend the paths over circuits whose far ends are created in bulk, with the statements of a few', async () => {
    const costs: number[] = [];
    for (const n of [2, 12]) {
      const [xs, ys] = [await interfaces(d.a, n), await interfaces(d.b, n)];
      const { a, circuits: made } = await circuits(n, false);
      await create(t, '/api/dcim/cables/', xs.map((x, i) => link([I, x], [CT, a[i]])));
      assert.equal((await endpointOf(xs[0])).id, a[0].id, 'a circuit without its far end is the destination');
      const z = await counted('POST', '/api/circuits/circuit-terminations/', made.map((c: any) => ({ circuit: c.id, term_side: 'Z', location: location.id })), 201);
      costs.push(z.statements);
      assert.equal((await endpointOf(xs[n - 1])).id, null, 'the path goes on to the new Z side, which has no cable yet');
      await create(t, '/api/dcim/cables/', z.body.map((zt: any, i: number) => link([CT, zt], [I, ys[i]])));
      assert.equal((await endpointOf(xs[n - 1])).id, ys[n - 1].id);
    }
    assert.ok(costs[1] <= costs[0] + 2, `2 terminations took ${costs[0]} statements, 12 took ${costs[1]}`);
  });
});

describe('POST /api/dcim/cables/ in bulk', () => {
  it('should refuse an end taken by an earlier cable of the request, naming the later cable\'s side, and keep nothing', async () => {
    const [x, y, z] = await interfaces(d.a, 3);
    const before = (await t.call('GET', '/api/dcim/cables/?limit=1')).body.count;
    const taken = ['This termination already has a cable attached.'];
    assert.deepEqual((await counted('POST', '/api/dcim/cables/', [link([I, x], [I, y]), link([I, y], [I, z])], 400)).body, { termination_a: taken });
    assert.deepEqual((await counted('POST', '/api/dcim/cables/', [link([I, x], [I, y]), link([I, z], [I, x])], 400)).body, { termination_b: taken });
    assert.equal((await t.call('GET', '/api/dcim/cables/?limit=1')).body.count, before);
    for (const end of [x, y, z]) assert.deepEqual(await endpointOf(end), { cable: null, id: null, reachable: null });
  });

  it('should refuse an end already cabled with the rule\'s message in place, and keep nothing of the batch', async () => {
    const [x, y, z, u] = await interfaces(d.a, 4);
    const [kept] = await create(t, '/api/dcim/cables/', [link([I, x], [I, y])]);
    const res = await counted('POST', '/api/dcim/cables/', [link([I, z], [I, u]), link([I, u], [I, x])], 400);
    assert.deepEqual(res.body[0], {});
    assert.deepEqual(res.body[1], { termination_b: [`This interface already has a cable attached (${kept.id}).`] });
    assert.deepEqual(await endpointOf(z), { cable: null, id: null, reachable: null });
  });
});

describe('DELETE /api/dcim/cables/ in bulk', () => {
  it('should record every freed end once, as updated, with the cable deletes', async () => {
    const { body, ends } = await chains(2);
    const made = await create(t, '/api/dcim/cables/', body);
    assert.equal((await t.call('DELETE', '/api/dcim/cables/', made.map((c: any) => ({ id: c.id })))).status, 204);
    const expected = [...made.map((c: any) => `delete dcim.cable ${c.id}`), ...ends.map((e) => `update ${e}`)].sort();
    assert.deepEqual(await requestChanges(made[0].id), expected);
  });
});

describe('PATCH /api/dcim/rear-ports/ in bulk', () => {
  it('should refuse dropping a position a front port is mapped to, and shrink the others', async () => {
    const rears = await create(t, '/api/dcim/rear-ports/', [0, 1, 2].map((i) => ({ device: d.p1.id, name: `shrink-${i}`, type: '8p8c', positions: 4 })));
    await create(t, '/api/dcim/front-ports/', rears.map((r: any, i: number) => ({ device: d.p1.id, name: `shrink-f${i}`, type: '8p8c', rear_port: r.id, rear_port_position: i === 1 ? 4 : 1 })));
    const res = await counted('PATCH', '/api/dcim/rear-ports/', rears.map((r: any) => ({ id: r.id, positions: 2 })), 400);
    // A bulk update answers the first object's errors, as the reference validates them one by one.
    assert.deepEqual(res.body, { positions: ['Cannot reduce the positions to 2: front ports are mapped to position 4.'] });
    const ok = await counted('PATCH', '/api/dcim/rear-ports/', [rears[0], rears[2]].map((r: any) => ({ id: r.id, positions: 2 })), 200);
    assert.deepEqual(ok.body.map((r: any) => r.positions), [2, 2]);
  });
});
