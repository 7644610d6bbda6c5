import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeApp } from '../../helpers/app.js';
import { cable, makeDevices, makeInterface, makePanelPorts } from './cable-topology.js';
import { assertRefused } from '../../helpers/refusals.js';
import type { TestApp } from '../../helpers/app.js';

let t: TestApp;
let i1: any;
let i2: any;
let p1: any;
let p2: any;
const cables: Record<string, any> = {};

/** `object_type:id` of each object of each trace segment. */
async function traceIds(url: string): Promise<(string | null)[][]> {
  const res = await t.call('GET', url);
  assert.equal(res.status, 200, res.raw);
  return res.body.map((segment: any[]) => segment.map((o) => (o ? `${o.object_type}:${o.id}` : null)));
}

const ref = (type: string, o: any) => `${type}:${o.id}`;

async function connectedEnd(iface: any) {
  const res = await t.call('GET', `/api/dcim/interfaces/${iface.id}/`);
  return { type: res.body.connected_endpoint_type, id: res.body.connected_endpoint?.id ?? null, reachable: res.body.connected_endpoint_reachable };
}

before(async () => {
  t = await makeApp();
  const d = await makeDevices(t, ['a', 'b', 'p1', 'p2']);
  i1 = await makeInterface(t, d.a, 'eth0');
  i2 = await makeInterface(t, d.b, 'eth0');
  p1 = await makePanelPorts(t, d.p1, 'pp');
  p2 = await makePanelPorts(t, d.p2, 'pp');
  // Built out of order: the middle first, so each new cable must extend paths already stored.
  cables.c2 = (await cable(t, ['dcim.rearport', p1.rear], ['dcim.rearport', p2.rear])).body;
  cables.c1 = (await cable(t, ['dcim.interface', i1], ['dcim.frontport', p1.fronts[0]])).body;
  cables.c3 = (await cable(t, ['dcim.frontport', p2.fronts[0]], ['dcim.interface', i2], { status: 'Planned' })).body;
});
after(() => t.close());

describe('GET /api/dcim/interfaces/{id}/trace/', () => {
  it('should return interface - front - rear - rear - front - interface as three segments', async () => {
    assert.deepEqual(await traceIds(`/api/dcim/interfaces/${i1.id}/trace/`), [
      [ref('dcim.interface', i1), ref('dcim.cable', cables.c1), ref('dcim.frontport', p1.fronts[0])],
      [ref('dcim.rearport', p1.rear), ref('dcim.cable', cables.c2), ref('dcim.rearport', p2.rear)],
      [ref('dcim.frontport', p2.fronts[0]), ref('dcim.cable', cables.c3), ref('dcim.interface', i2)],
    ]);
  });

  it('should render each object as its endpoint does at depth 0', async () => {
    const res = await t.call('GET', `/api/dcim/interfaces/${i2.id}/trace/`);
    const [near, wire, far] = res.body[0];
    assert.equal(near.url, i2.url);
    assert.equal(wire.object_type, 'dcim.cable');
    assert.deepEqual(wire.status.id !== undefined, true);
    assert.equal(far.cable_peer_type, 'dcim.interface');
    assert.equal(res.body.at(-1)[2].id, i1.id);
  });

  it('should answer an empty list for an interface without a cable', async () => {
    const d = (await t.call('GET', '/api/dcim/devices/?name=a')).body.results[0];
    const loose = await makeInterface(t, d, 'eth9');
    assert.deepEqual((await t.call('GET', `/api/dcim/interfaces/${loose.id}/trace/`)).body, []);
    assertRefused(await t.call('POST', `/api/dcim/interfaces/${loose.id}/trace/`, {}), 405, { detail: 'Method "POST" not allowed.' });
  });
});

describe('connected_endpoint and cable_peer', () => {
  it('should point each end at the other, unreachable while a cable is only planned', async () => {
    assert.deepEqual(await connectedEnd(i1), { type: 'dcim.interface', id: i2.id, reachable: false });
    assert.deepEqual(await connectedEnd(i2), { type: 'dcim.interface', id: i1.id, reachable: false });
  });

  it('should become reachable when the planned cable is marked connected', async () => {
    const res = await t.call('PATCH', `/api/dcim/cables/${cables.c3.id}/`, { status: 'Connected' });
    assert.equal(res.status, 200, res.raw);
    assert.deepEqual(await connectedEnd(i1), { type: 'dcim.interface', id: i2.id, reachable: true });
  });

  it('should render cable_peer with its type and the cable ends as objects', async () => {
    const front = (await t.call('GET', `/api/dcim/front-ports/${p1.fronts[0].id}/`)).body;
    assert.equal(front.cable_peer_type, 'dcim.interface');
    assert.deepEqual(front.cable_peer, { id: i1.id, object_type: 'dcim.interface', url: i1.url });
    assert.equal(front.cable.id, cables.c1.id);
    const rear = (await t.call('GET', `/api/dcim/rear-ports/${p1.rear.id}/`)).body;
    assert.equal(rear.cable_peer.id, p2.rear.id);
  });

  it('should clear both ends when the middle cable is deleted, and restore them when it returns', async () => {
    assert.equal((await t.call('DELETE', `/api/dcim/cables/${cables.c2.id}/`)).status, 204);
    assert.deepEqual(await connectedEnd(i1), { type: null, id: null, reachable: false });
    assert.deepEqual(await connectedEnd(i2), { type: null, id: null, reachable: false });
    const rear = (await t.call('GET', `/api/dcim/rear-ports/${p1.rear.id}/`)).body;
    assert.deepEqual([rear.cable, rear.cable_peer, rear.cable_peer_type], [null, null, null]);
    assert.deepEqual(await traceIds(`/api/dcim/interfaces/${i1.id}/trace/`), [[ref('dcim.interface', i1), ref('dcim.cable', cables.c1), ref('dcim.frontport', p1.fronts[0])]]);
    cables.c2 = (await cable(t, ['dcim.rearport', p2.rear], ['dcim.rearport', p1.rear])).body;
    assert.deepEqual(await connectedEnd(i1), { type: 'dcim.interface', id: i2.id, reachable: true });
    assert.deepEqual(await connectedEnd(i2), { type: 'dcim.interface', id: i1.id, reachable: true });
  });
});

describe('GET /api/dcim/{front,rear}-ports/{id}/paths/', () => {
  it('should list both directions of the path through a front port', async () => {
    const res = await t.call('GET', `/api/dcim/front-ports/${p1.fronts[0].id}/paths/`);
    assert.equal(res.status, 200, res.raw);
    assert.deepEqual(res.body.map((p: any) => p.origin.id).sort(), [i1.id, i2.id].sort());
    const fromI1 = res.body.find((p: any) => p.origin.id === i1.id);
    assert.equal(fromI1.origin_type, 'dcim.interface');
    assert.equal(fromI1.destination.id, i2.id);
    assert.equal(fromI1.is_active, true);
    assert.equal(fromI1.is_split, false);
    assert.deepEqual(fromI1.path.map((n: any) => n.object_type), ['dcim.cable', 'dcim.frontport', 'dcim.rearport', 'dcim.cable', 'dcim.rearport', 'dcim.frontport', 'dcim.cable']);
    assert.equal((await t.call('GET', `/api/dcim/rear-ports/${p2.rear.id}/paths/`)).body.length, 2);
  });
});

describe('multi-position rear ports', () => {
  it('should follow the front port position across two four-position panels', async () => {
    const d = await t.call('GET', '/api/dcim/devices/?name=a');
    const a = d.body.results[0];
    const b = (await t.call('GET', '/api/dcim/devices/?name=b')).body.results[0];
    const x = await makePanelPorts(t, a, 'mx', 4);
    const y = await makePanelPorts(t, b, 'my', 4);
    const ia = await makeInterface(t, a, 'eth3');
    const ib = await makeInterface(t, b, 'eth3');
    assert.equal((await cable(t, ['dcim.rearport', x.rear], ['dcim.rearport', y.rear])).status, 201);
    assert.equal((await cable(t, ['dcim.interface', ia], ['dcim.frontport', x.fronts[2]])).status, 201);
    assert.deepEqual(await connectedEnd(ia), { type: null, id: null, reachable: false }, 'position 3 of the far panel is not cabled yet');
    assert.equal((await cable(t, ['dcim.frontport', y.fronts[2]], ['dcim.interface', ib])).status, 201);
    assert.deepEqual(await connectedEnd(ia), { type: 'dcim.interface', id: ib.id, reachable: true });
    const trace = await traceIds(`/api/dcim/interfaces/${ib.id}/trace/`);
    assert.equal(trace[1][0], ref('dcim.rearport', y.rear));
    assert.equal(trace[2][0], ref('dcim.frontport', x.fronts[2]));
  });
});

describe('DELETE /api/dcim/devices/{id}/', () => {
  it('should delete the cables of its components and clear the far ends', async () => {
    const b = (await t.call('GET', '/api/dcim/devices/?name=b')).body.results[0];
    assert.equal((await t.call('DELETE', `/api/dcim/devices/${b.id}/`)).status, 204);
    assert.equal((await t.call('GET', `/api/dcim/cables/${cables.c3.id}/`)).status, 404);
    assert.deepEqual(await connectedEnd(i1), { type: null, id: null, reachable: false });
    const front = (await t.call('GET', `/api/dcim/front-ports/${p2.fronts[0].id}/`)).body;
    assert.deepEqual([front.cable, front.cable_peer], [null, null]);
    const changes = await t.call('GET', `/api/extras/object-changes/?changed_object_id=${cables.c3.id}`);
    assert.deepEqual(changes.body.results.map((c: any) => c.action.value).sort(), ['create', 'delete', 'update']);
  });
});
