import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { create, makeApp } from '../../helpers/app.js';
import { cable, makeDevices, makeInterface, makePanelPorts } from './cable-topology.js';
import { assertRefused } from '../../helpers/refusals.js';
import type { TestApp } from '../../helpers/app.js';

let t: TestApp;
let d: Record<string, any>;
let i1: any;
let i2: any;
let near: { rear: any; fronts: any[] };
let far: { rear: any; fronts: any[] };
const cables: Record<string, any> = {};

const get = async (path: string) => (await t.call('GET', path)).body;

/** What the far end and the cables look like through the API. */
async function snapshot() {
  return {
    i1: await get(`/api/dcim/interfaces/${i1.id}/`),
    i2: await get(`/api/dcim/interfaces/${i2.id}/`),
    rear: await get(`/api/dcim/rear-ports/${near.rear.id}/`),
    cables: (await get('/api/dcim/cables/?limit=0')).results,
    trace: await get(`/api/dcim/interfaces/${i1.id}/trace/`),
  };
}

/** Stored cable paths whose node list or ends name `id`. */
async function storedPathsNaming(id: string): Promise<number> {
  const db = t.app.services.dialect.db;
  const rows = await db.selectFrom('dcim_cablepath').select('id')
    .where((eb) => eb.or([eb(sql`cast(path as text)`, 'like', `%${id}%`), eb('origin_id', '=', id), eb('destination_id', '=', id)])).execute();
  return rows.length;
}

before(async () => {
  t = await makeApp();
  d = await makeDevices(t, ['a', 'b', 'p1', 'p2']);
  i1 = await makeInterface(t, d.a, 'eth0');
  i2 = await makeInterface(t, d.b, 'eth0');
  near = await makePanelPorts(t, d.p1, 'pp');
  far = await makePanelPorts(t, d.p2, 'pp');
  cables.c1 = (await cable(t, ['dcim.interface', i1], ['dcim.frontport', near.fronts[0]])).body;
  cables.c2 = (await cable(t, ['dcim.rearport', near.rear], ['dcim.rearport', far.rear])).body;
  cables.c3 = (await cable(t, ['dcim.frontport', far.fronts[0]], ['dcim.interface', i2])).body;
});
after(() => t.close());

describe('DELETE /api/dcim/devices/{id}/ of a patch panel in the middle of a path', () => {
  it('should change nothing when the delete is refused', async () => {
    const status = (await get('/api/extras/statuses/?name=Active')).results[0];
    await t.call('PATCH', `/api/extras/statuses/${status.id}/`, { content_types: [...status.content_types, 'dcim.controller'] });
    const site = (await get('/api/dcim/location-types/?name=Site')).results[0];
    assert.equal((await t.call('PATCH', `/api/dcim/location-types/${site.id}/`, { content_types: [...site.content_types, 'dcim.controller'] })).status, 200);
    const controller = await create(t, '/api/dcim/controllers/', { name: 'ctl', status: 'Active', location: d.p2.location.id, controller_device: d.p2.id });
    const before = await snapshot();
    assert.equal(before.i1.connected_endpoint.id, i2.id);
    assert.equal(await storedPathsNaming(far.rear.id), 2, 'both directions run over the far panel');
    assertRefused(await t.call('DELETE', `/api/dcim/devices/${d.p2.id}/`), 409, { detail: `Unable to delete object. 1 dependent objects were found: ctl (${controller.id})` });
    assert.deepEqual(await snapshot(), before);
    assert.equal((await t.call('DELETE', `/api/dcim/controllers/${controller.id}/`)).status, 204);
  });

  it('should delete its ports and their cables, and clear the cable, peer and path of every far end', async () => {
    assert.equal((await t.call('DELETE', `/api/dcim/devices/${d.p2.id}/`)).status, 204);
    for (const c of [cables.c2, cables.c3]) assert.equal((await t.call('GET', `/api/dcim/cables/${c.id}/`)).status, 404);
    assert.equal((await t.call('GET', `/api/dcim/rear-ports/${far.rear.id}/`)).status, 404);
    const { i1: a, i2: b, rear, cables: left, trace } = await snapshot();
    assert.deepEqual(left.map((c: any) => c.id), [cables.c1.id]);
    assert.deepEqual([a.connected_endpoint, a.connected_endpoint_type, a.cable.id], [null, null, cables.c1.id]);
    assert.deepEqual([b.cable, b.cable_peer, b.connected_endpoint, b.connected_endpoint_reachable], [null, null, null, null]);
    assert.deepEqual([rear.cable, rear.cable_peer, rear.cable_peer_type], [null, null, null]);
    assert.deepEqual(trace.map((s: any[]) => s.map((o) => o?.id ?? null)), [[i1.id, cables.c1.id, near.fronts[0].id]]);
    assert.deepEqual(await get(`/api/dcim/interfaces/${i2.id}/trace/`), []);
    for (const gone of [far.rear, far.fronts[0], cables.c2, cables.c3, i2]) assert.equal(await storedPathsNaming(gone.id), 0, gone.id);
  });
});
