import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import { cable, makeDevices, makeInterface, makePanelPorts } from './cable-topology.js';
import { assertRefused } from '../../helpers/refusals.js';
import type { TestApp } from '../../helpers/app.js';

let t: TestApp;
let d: Record<string, any>;
let eth0: any;
let eth1: any;

before(async () => {
  t = await makeApp();
  d = await makeDevices(t, ['a', 'b']);
  eth0 = await makeInterface(t, d.a, 'eth0');
  eth1 = await makeInterface(t, d.b, 'eth1');
});
after(() => t.close());

/** Sends a cable and expects a 400 naming `field`. */
async function refused(a: [string, any], b: [string, any], field: string, extra: Record<string, unknown> = {}) {
  const res = await cable(t, a, b, extra);
  assert.equal(res.status, 400, res.raw);
  assert.ok(res.body[field], `expected an error on ${field}: ${res.raw}`);
  return res.body[field][0] as string;
}

describe('POST /api/dcim/cables/ rules', () => {
  it('should require both ends and refuse a model that cannot be cabled', async () => {
    const res = await t.call('POST', '/api/dcim/cables/', { status: 'Connected' });
    assert.deepEqual(Object.keys(res.body).sort(), ['termination_a_id', 'termination_a_type', 'termination_b_id', 'termination_b_type']);
    await refused(['dcim.device', d.a], ['dcim.interface', eth0], 'termination_a_type');
  });

  it('should refuse an end that does not exist, as the reference checks every generic relation', async () => {
    assert.equal(await refused(['dcim.interface', { id: '00000000-0000-4000-8000-000000000000' }], ['dcim.interface', eth0], 'termination_a_id'), 'Object not found');
  });

  it('should refuse incompatible types, naming the B type', async () => {
    const power = await create(t, '/api/dcim/power-ports/', { device: d.a.id, name: 'psu0' });
    const message = await refused(['dcim.interface', eth0], ['dcim.powerport', power], 'termination_b_type');
    assert.match(message, /dcim\.interface.*dcim\.powerport/);
  });

  it('should refuse virtual and wireless interfaces', async () => {
    const virtual = await makeInterface(t, d.a, 'vlan10', 'virtual');
    const wifi = await makeInterface(t, d.a, 'wlan0', 'ieee802.11ac');
    await refused(['dcim.interface', virtual], ['dcim.interface', eth1], 'termination_a');
    await refused(['dcim.interface', eth1], ['dcim.interface', wifi], 'termination_b');
  });

  it('should refuse a cable from a termination to itself and from a front port to its own rear port', async () => {
    await refused(['dcim.interface', eth0], ['dcim.interface', eth0], 'termination_b');
    const panel = await makePanelPorts(t, d.a, 'own');
    await refused(['dcim.frontport', panel.fronts[0]], ['dcim.rearport', panel.rear], 'termination_b');
  });

  it('should refuse two multi-position rear ports of different sizes', async () => {
    const x = await makePanelPorts(t, d.a, 'x', 2);
    const y = await makePanelPorts(t, d.b, 'y', 3);
    await refused(['dcim.rearport', x.rear], ['dcim.rearport', y.rear], 'termination_b');
  });

  it('should allow one cable per end, whichever side it was on', async () => {
    assert.equal((await cable(t, ['dcim.interface', eth0], ['dcim.interface', eth1])).status, 201);
    const spare = await makeInterface(t, d.b, 'eth2');
    await refused(['dcim.interface', spare], ['dcim.interface', eth0], 'termination_b');
    const batch = await t.call('POST', '/api/dcim/cables/', [
      { termination_a_type: 'dcim.interface', termination_a_id: spare.id, termination_b_type: 'dcim.interface', termination_b_id: (await makeInterface(t, d.a, 'eth5')).id, status: 'Connected' },
      { termination_a_type: 'dcim.interface', termination_a_id: (await makeInterface(t, d.a, 'eth6')).id, termination_b_type: 'dcim.interface', termination_b_id: spare.id, status: 'Connected' },
    ]);
    assertRefused(batch, 400, { termination_b: ['This termination already has a cable attached.'] }, 'two new cables on one end in one request');
    assert.equal((await t.call('GET', `/api/dcim/cables/?device_id=${d.b.id}`)).body.count, 1, 'nothing of the batch was kept');
  });

  it('should keep the ends of an existing cable', async () => {
    const existing = (await t.call('GET', '/api/dcim/cables/')).body.results[0];
    const spare = await makeInterface(t, d.b, 'eth7');
    const res = await t.call('PATCH', `/api/dcim/cables/${existing.id}/`, { termination_b_id: spare.id });
    assertRefused(res, 400, { termination_b: ['The terminations of an existing cable cannot be changed; delete the cable and create a new one.'] });
    const ok = await t.call('PATCH', `/api/dcim/cables/${existing.id}/`, { label: 'uplink', length: 3, length_unit: 'm' });
    assert.equal(ok.status, 200, ok.raw);
    assert.deepEqual(ok.body.length_unit, { value: 'm', label: 'Meters' });
  });

  it('should require a unit with a length and drop the unit without one', async () => {
    const existing = (await t.call('GET', '/api/dcim/cables/')).body.results[0];
    const res = await t.call('PATCH', `/api/dcim/cables/${existing.id}/`, { length: 5, length_unit: '' });
    assertRefused(res, 400, { length_unit: ['A unit is required when a cable length is given.'] });
    const cleared = await t.call('PATCH', `/api/dcim/cables/${existing.id}/`, { length: null });
    assert.equal(cleared.body.length_unit, null);
  });

  it('should refuse changing a cabled interface to a virtual type', async () => {
    const res = await t.call('PATCH', `/api/dcim/interfaces/${eth0.id}/`, { type: 'virtual' });
    assertRefused(res, 400, { type: ['An interface with a cable cannot be of type virtual (virtual and wireless interfaces cannot be cabled).'] });
  });
});

describe('GET /api/dcim/cables/ filters', () => {
  it('should filter by the device, location and termination type of either end', async () => {
    for (const query of [`device_id=${d.a.id}`, 'device=b', 'location=dc1', 'termination_type=dcim.interface', 'termination_a_type=dcim.interface']) {
      const res = await t.call('GET', `/api/dcim/cables/?${query}`);
      assert.equal(res.status, 200, `${query}: ${res.raw}`);
      assert.equal(res.body.count, 1, query);
    }
    assertRefused(await t.call('GET', '/api/dcim/cables/?device=nope'), 400, { device: ['Select a valid choice. nope is not one of the available choices.'] });
    assert.equal((await t.call('GET', '/api/dcim/cables/?termination_type=dcim.powerport')).body.count, 0);
  });

  it('should filter components by has_cable and connected', async () => {
    assert.equal((await t.call('GET', `/api/dcim/interfaces/?device=${d.a.id}&has_cable=true`)).body.count, 1);
    assert.equal((await t.call('GET', '/api/dcim/interfaces/?connected=true')).body.count, 2);
    assert.equal((await t.call('GET', '/api/dcim/rear-ports/?has_cable=false')).body.count, 3);
    assertRefused(await t.call('GET', '/api/dcim/rear-ports/?connected=true'), 400, { connected: ['Unknown filter field'] });
  });
});

describe('OPTIONS /api/dcim/cables/', () => {
  it('should offer the nine termination types as choices', async () => {
    const res = await t.call('OPTIONS', '/api/dcim/cables/');
    const choices = res.body.actions.POST.termination_a_type.choices.map((c: any) => c.value);
    assert.deepEqual(choices, ['circuits.circuittermination', 'dcim.consoleport', 'dcim.consoleserverport', 'dcim.frontport', 'dcim.interface', 'dcim.powerfeed', 'dcim.poweroutlet', 'dcim.powerport', 'dcim.rearport']);
    assert.equal(res.body.actions.POST.termination_a.read_only, true);
    assert.equal(res.body.actions.POST.termination_a_device, undefined);
  });
});
