import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import { cable, makeDevices, makeInterface, makePanelPorts } from './cable-topology.js';
import type { TestApp } from '../../helpers/app.js';

let t: TestApp;
let d: Record<string, any>;

/** The change records of the request that recorded `action` on `objectId`, as `action type id` strings (sorted). */
async function requestChanges(objectId: string, action: string): Promise<{ list: string[]; records: any[] }> {
  const own = await t.call('GET', `/api/extras/object-changes/?changed_object_id=${objectId}&action=${action}`);
  assert.equal(own.body.count, 1, own.raw);
  const res = await t.call('GET', `/api/extras/object-changes/?request_id=${own.body.results[0].request_id}&limit=0`);
  const records = res.body.results;
  return { list: records.map((r: any) => `${r.action.value} ${r.changed_object_type} ${r.changed_object_id}`).sort(), records };
}

const entry = (action: string, type: string, o: any) => `${action} ${type} ${o.id}`;

before(async () => {
  t = await makeApp();
  d = await makeDevices(t, ['a', 'b', 'p1', 'p2']);
});
after(() => t.close());

describe('change log of cable writes', () => {
  it('should record both ends as updated, with their cable, in the request that creates a cable', async () => {
    const [x, y] = [await makeInterface(t, d.a, 'x0'), await makeInterface(t, d.b, 'y0')];
    const made = (await cable(t, ['dcim.interface', x], ['dcim.interface', y])).body;
    const { list, records } = await requestChanges(made.id, 'create');
    assert.deepEqual(list, [entry('create', 'dcim.cable', made), entry('update', 'dcim.interface', x), entry('update', 'dcim.interface', y)].sort());
    const xRecord = records.find((r: any) => r.changed_object_id === x.id);
    assert.equal(xRecord.object_data.cable, made.id);
    assert.equal(xRecord.object_data_v2.cable_peer.id, y.id);
    const after = (await t.call('GET', `/api/dcim/interfaces/${x.id}/`)).body;
    assert.notEqual(after.last_updated, x.last_updated, 'the end was saved');
  });

  it('should record only the cable when its status changes', async () => {
    const [x, y] = [await makeInterface(t, d.a, 'x1'), await makeInterface(t, d.b, 'y1')];
    const made = (await cable(t, ['dcim.interface', x], ['dcim.interface', y], { status: 'Planned' })).body;
    assert.equal((await t.call('PATCH', `/api/dcim/cables/${made.id}/`, { status: 'Connected' })).status, 200);
    assert.deepEqual((await requestChanges(made.id, 'update')).list, [entry('update', 'dcim.cable', made)]);
  });

  it('should record the freed ends, and not the endpoints beyond them, when a middle cable is deleted', async () => {
    const [x, y] = [await makeInterface(t, d.a, 'x2'), await makeInterface(t, d.b, 'y2')];
    const [p1, p2] = [await makePanelPorts(t, d.p1, 'm'), await makePanelPorts(t, d.p2, 'm')];
    await cable(t, ['dcim.interface', x], ['dcim.frontport', p1.fronts[0]]);
    const middle = (await cable(t, ['dcim.rearport', p1.rear], ['dcim.rearport', p2.rear])).body;
    await cable(t, ['dcim.frontport', p2.fronts[0]], ['dcim.interface', y]);
    assert.equal((await t.call('GET', `/api/dcim/interfaces/${x.id}/`)).body.connected_endpoint.id, y.id);
    assert.equal((await t.call('DELETE', `/api/dcim/cables/${middle.id}/`)).status, 204);
    const { list, records } = await requestChanges(middle.id, 'delete');
    assert.deepEqual(list, [entry('delete', 'dcim.cable', middle), entry('update', 'dcim.rearport', p1.rear), entry('update', 'dcim.rearport', p2.rear)].sort());
    assert.ok(records.every((r: any) => r.changed_object_type !== 'dcim.rearport' || r.object_data.cable === null));
    assert.equal((await t.call('GET', `/api/dcim/interfaces/${x.id}/`)).body.connected_endpoint, null);
  });

  it('should record a device delete with one record per component and an update of the far end', async () => {
    const doomed = await create(t, '/api/dcim/devices/', { name: 'gone', device_type: d.a.device_type.id, role: d.a.role.id, location: d.a.location.id, status: 'Active' });
    const [near, far] = [await makeInterface(t, doomed, 'g0'), await makeInterface(t, d.b, 'y3')];
    const made = (await cable(t, ['dcim.interface', far], ['dcim.interface', near])).body;
    assert.equal((await t.call('DELETE', `/api/dcim/devices/${doomed.id}/`)).status, 204);
    const { list } = await requestChanges(doomed.id, 'delete');
    assert.deepEqual(list, [
      entry('delete', 'dcim.device', doomed), entry('delete', 'dcim.interface', near), entry('delete', 'dcim.cable', made), entry('update', 'dcim.interface', far),
    ].sort());
  });

  it('should keep one delete record for ends deleted in the same request as their cable', async () => {
    const devices = await t.call('POST', '/api/dcim/devices/', ['g1', 'g2'].map((name) => ({ name, device_type: d.a.device_type.id, role: d.a.role.id, location: d.a.location.id, status: 'Active' })));
    const [g1, g2] = devices.body;
    const ends = [await makeInterface(t, g1, 'l0'), await makeInterface(t, g2, 'l0'), await makeInterface(t, g2, 'l1'), await makeInterface(t, d.b, 'y4')];
    const across = (await cable(t, ['dcim.interface', ends[0]], ['dcim.interface', ends[1]])).body;
    const out = (await cable(t, ['dcim.interface', ends[3]], ['dcim.interface', ends[2]])).body;
    assert.equal((await t.call('DELETE', '/api/dcim/devices/', [{ id: g1.id }, { id: g2.id }])).status, 204);
    const { list } = await requestChanges(g1.id, 'delete');
    assert.deepEqual(list, [
      entry('delete', 'dcim.device', g1), entry('delete', 'dcim.device', g2), entry('delete', 'dcim.cable', across), entry('delete', 'dcim.cable', out),
      ...ends.slice(0, 3).map((e) => entry('delete', 'dcim.interface', e)), entry('update', 'dcim.interface', ends[3]),
    ].sort());
  });
});
