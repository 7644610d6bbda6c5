import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import { cable, makeDevices, makeInterface, makePanelPorts } from './cable-topology.js';
import type { TestApp } from '../../helpers/app.js';

let t: TestApp;
let d: Record<string, any>;

const ref = (type: string, o: any) => `${type}:${o.id}`;

/** `object_type:id` of each object of each trace segment. */
async function traceIds(iface: any): Promise<(string | null)[][]> {
  const res = await t.call('GET', `/api/dcim/interfaces/${iface.id}/trace/`);
  assert.equal(res.status, 200, res.raw);
  return res.body.map((segment: any[]) => segment.map((o) => (o ? `${o.object_type}:${o.id}` : null)));
}

/** The interface's connected endpoint id (null without one). */
async function endOf(iface: any): Promise<string | null> {
  const res = await t.call('GET', `/api/dcim/interfaces/${iface.id}/`);
  return res.body.connected_endpoint?.id ?? null;
}

async function patch(path: string, body: Record<string, unknown>) {
  const res = await t.call('PATCH', path, body);
  assert.equal(res.status, 200, res.raw);
  return res.body;
}

const rearPort = (device: any, name: string, positions = 1) => create(t, '/api/dcim/rear-ports/', { device: device.id, name, type: '8p8c', positions });

before(async () => {
  t = await makeApp();
  d = await makeDevices(t, ['a', 'b', 'c', 'p1', 'p2']);
});
after(() => t.close());

describe('PATCH /api/dcim/front-ports/{id}/ rear_port', () => {
  it('should retrace both ends of a path when the far panel remaps its front ports', async () => {
    // i1 - f1 | r1 = r2 | f2 - i2, and f3 (on a spare rear port of the far panel) - i3.
    const [i1, i2, i3] = [await makeInterface(t, d.a, 'e0'), await makeInterface(t, d.b, 'e0'), await makeInterface(t, d.c, 'e0')];
    const near = await makePanelPorts(t, d.p1, 'n');
    const far = await makePanelPorts(t, d.p2, 'f');
    const [spare, free] = [await makePanelPorts(t, d.p2, 's'), await rearPort(d.p2, 'free-rear')];
    const c1 = (await cable(t, ['dcim.interface', i1], ['dcim.frontport', near.fronts[0]])).body;
    const c2 = (await cable(t, ['dcim.rearport', near.rear], ['dcim.rearport', far.rear])).body;
    await cable(t, ['dcim.frontport', far.fronts[0]], ['dcim.interface', i2]);
    const c4 = (await cable(t, ['dcim.frontport', spare.fronts[0]], ['dcim.interface', i3])).body;
    assert.deepEqual([await endOf(i1), await endOf(i2), await endOf(i3)], [i2.id, i1.id, null]);

    await patch(`/api/dcim/front-ports/${far.fronts[0].id}/`, { rear_port: free.id });
    assert.deepEqual([await endOf(i1), await endOf(i2)], [null, null], 'the far rear port has no front port at position 1 now');

    await patch(`/api/dcim/front-ports/${spare.fronts[0].id}/`, { rear_port: far.rear.id });
    assert.deepEqual([await endOf(i1), await endOf(i3)], [i3.id, i1.id]);
    assert.deepEqual(await traceIds(i3), [
      [ref('dcim.interface', i3), ref('dcim.cable', c4), ref('dcim.frontport', spare.fronts[0])],
      [ref('dcim.rearport', far.rear), ref('dcim.cable', c2), ref('dcim.rearport', near.rear)],
      [ref('dcim.frontport', near.fronts[0]), ref('dcim.cable', c1), ref('dcim.interface', i1)],
    ]);
    const paths = (await t.call('GET', `/api/dcim/front-ports/${spare.fronts[0].id}/paths/`)).body;
    assert.deepEqual(paths.map((p: any) => p.origin.id).sort(), [i1.id, i3.id].sort());
  });
});

describe('PATCH /api/dcim/front-ports/{id}/ rear_port_position', () => {
  it('should follow a front port to its new position on a multi-position panel', async () => {
    const [ia, ib, ic] = [await makeInterface(t, d.a, 'e1'), await makeInterface(t, d.b, 'e1'), await makeInterface(t, d.c, 'e1')];
    const x = await makePanelPorts(t, d.p1, 'x', 3);
    const y = await makePanelPorts(t, d.p2, 'y', 3);
    await cable(t, ['dcim.rearport', x.rear], ['dcim.rearport', y.rear]);
    await cable(t, ['dcim.interface', ia], ['dcim.frontport', x.fronts[0]]);
    await cable(t, ['dcim.frontport', y.fronts[0]], ['dcim.interface', ib]);
    await cable(t, ['dcim.frontport', y.fronts[1]], ['dcim.interface', ic]);
    assert.deepEqual([await endOf(ia), await endOf(ib), await endOf(ic)], [ib.id, ia.id, null]);
    assert.equal((await t.call('DELETE', `/api/dcim/front-ports/${y.fronts[2].id}/`)).status, 204);

    await patch(`/api/dcim/front-ports/${y.fronts[0].id}/`, { rear_port_position: 3 });
    await patch(`/api/dcim/front-ports/${y.fronts[1].id}/`, { rear_port_position: 1 });
    assert.deepEqual([await endOf(ia), await endOf(ib), await endOf(ic)], [ic.id, null, ia.id]);
    const trace = await traceIds(ia);
    assert.equal(trace[2][0], ref('dcim.frontport', y.fronts[1]));
    assert.equal(trace[2][2], ref('dcim.interface', ic));
  });
});

describe('PATCH /api/dcim/rear-ports/{id}/ positions', () => {
  let ports: { rear: any; fronts: any[] };
  before(async () => {
    ports = await makePanelPorts(t, d.p1, 'z', 4);
    assert.equal((await t.call('DELETE', `/api/dcim/front-ports/${ports.fronts[1].id}/`)).status, 204);
    assert.equal((await t.call('DELETE', `/api/dcim/front-ports/${ports.fronts[2].id}/`)).status, 204);
  });

  it('should refuse dropping a position a front port is mapped to', async () => {
    const res = await t.call('PATCH', `/api/dcim/rear-ports/${ports.rear.id}/`, { positions: 3 });
    assert.equal(res.status, 400, res.raw);
    assert.deepEqual(Object.keys(res.body), ['positions']);
    assert.match(res.body.positions[0], /position 4/);
    assert.equal((await t.call('GET', `/api/dcim/rear-ports/${ports.rear.id}/`)).body.positions, 4);
  });

  it('should answer with the reference rule when fewer positions than front ports are asked for', async () => {
    const res = await t.call('PATCH', `/api/dcim/rear-ports/${ports.rear.id}/`, { positions: 1 });
    assert.equal(res.status, 400, res.raw);
    assert.match(res.body.positions[0], /cannot be less than the number of mapped front ports \(2\)/);
  });

  it('should allow dropping unused positions', async () => {
    await patch(`/api/dcim/front-ports/${ports.fronts[3].id}/`, { rear_port_position: 2 });
    assert.equal((await patch(`/api/dcim/rear-ports/${ports.rear.id}/`, { positions: 2 })).positions, 2);
  });

  it('should retrace the paths over a rear port whose positions change', async () => {
    const [i1, i2] = [await makeInterface(t, d.a, 'e2'), await makeInterface(t, d.b, 'e2')];
    const [m, n] = [await makePanelPorts(t, d.p1, 'm'), await makePanelPorts(t, d.p2, 'm')];
    await cable(t, ['dcim.interface', i1], ['dcim.frontport', m.fronts[0]]);
    await cable(t, ['dcim.rearport', m.rear], ['dcim.rearport', n.rear]);
    await cable(t, ['dcim.frontport', n.fronts[0]], ['dcim.interface', i2]);
    assert.equal(await endOf(i1), i2.id);
    await patch(`/api/dcim/rear-ports/${n.rear.id}/`, { positions: 2 });
    assert.equal(await endOf(i1), null, 'a single-position panel cabled to a two-position one has no position to follow');
    await patch(`/api/dcim/rear-ports/${n.rear.id}/`, { positions: 1 });
    assert.deepEqual([await endOf(i1), await endOf(i2)], [i2.id, i1.id]);
  });
});
