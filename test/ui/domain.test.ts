import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../helpers/app.js';
import { Browser } from '../helpers/session.js';
import type { TestApp } from '../helpers/app.js';

let t: TestApp;
let b: Browser;
const w: Record<string, any> = {};

before(async () => {
  t = await makeApp();
  const type = await create(t, '/api/dcim/location-types/', { name: 'Site', content_types: ['dcim.device', 'dcim.rack', 'ipam.prefix'] });
  w.site = await create(t, '/api/dcim/locations/', { name: 'Lab', location_type: type.id, status: 'Active' });
  w.rack = await create(t, '/api/dcim/racks/', { name: 'R1', location: w.site.id, status: 'Active', u_height: 10 });
  const maker = await create(t, '/api/dcim/manufacturers/', { name: 'Acme' });
  w.type2u = await create(t, '/api/dcim/device-types/', { manufacturer: maker.id, model: 'Box-2U', u_height: 2, is_full_depth: false });
  const role = await create(t, '/api/extras/roles/', { name: 'Leaf', content_types: ['dcim.device'] });
  w.device = await create(t, '/api/dcim/devices/', { name: 'leaf-1', device_type: w.type2u.id, role: role.id, location: w.site.id, rack: w.rack.id, position: 4, face: 'front', status: 'Active' });
  w.iface = await create(t, '/api/dcim/interfaces/', { device: w.device.id, name: 'eth0', type: '1000base-t', status: 'Active' });
  await create(t, '/api/dcim/rack-reservations/', { rack: w.rack.id, units: [9], description: 'Future PDU' });
  w.prefix = await create(t, '/api/ipam/prefixes/', { prefix: '10.9.0.0/29', status: 'Active', type: 'network' });
  await create(t, '/api/ipam/ip-addresses/', { address: '10.9.0.1/29', status: 'Active', namespace: 'Global' });
  b = new Browser(t);
  await b.login();
});
after(async () => t.close());

describe('GET /api/dcim/racks/{id}/elevation/', () => {
  it('should list the units of a face top first with their occupancy, paginated as the reference', async () => {
    const res = await t.call('GET', `/api/dcim/racks/${w.rack.id}/elevation/`);
    assert.equal(res.status, 200);
    assert.equal(res.body.count, 10);
    assert.deepEqual(res.body.results[0], { id: 10, name: 'U10', face: { value: 'front', label: 'Front' }, occupied: false });
    assert.deepEqual(res.body.results.filter((u: any) => u.occupied).map((u: any) => u.id), [5, 4]);
    const rear = await t.call('GET', `/api/dcim/racks/${w.rack.id}/elevation/?face=rear`);
    assert.deepEqual(rear.body.results.filter((u: any) => u.occupied), [], 'a half-depth device is on its face only');
    const occupied = await t.call('GET', `/api/dcim/racks/${w.rack.id}/elevation/?is_occupied=true&limit=1`);
    assert.equal(occupied.body.count, 2);
    assert.match(occupied.body.next, /offset=1/);
    const bad = await t.call('GET', `/api/dcim/racks/${w.rack.id}/elevation/?face=top`);
    assert.deepEqual([bad.status, bad.body], [400, { face: ['"top" is not a valid choice.'] }]);
  });

  it('should draw the elevation as SVG with render=svg', async () => {
    const res = await t.call('GET', `/api/dcim/racks/${w.rack.id}/elevation/?render=svg`);
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /^image\/svg\+xml/);
    assert.match(res.raw, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    assert.match(res.raw, new RegExp(`<a href="http://[^/"]+/dcim/devices/${w.device.id}/">`), 'absolute links, as the reference draws them');
  });
});

describe('domain views', () => {
  it('should show the rack elevation with the device, free and reserved units', async () => {
    const res = await b.get(`/dcim/racks/${w.rack.id}/`);
    assert.equal(res.status, 200);
    assert.match(res.raw, /<figure class="elevation" id="elevation-front"><figcaption><b>Front<\/b> <span class="muted">\(7 of 10 units free\)/);
    assert.match(res.raw, /<title>leaf-1<\/title>/);
    assert.match(res.raw, /Reserved: Future PDU/);
    assert.match(res.raw, new RegExp(`href="/dcim/devices/add/\\?rack=${w.rack.id}&amp;location=${w.site.id}"`));
  });

  it('should show a prefix\'s utilization and free space, and allocate its next free IP to an interface', async () => {
    const page = await b.get(`/ipam/prefixes/${w.prefix.id}/`);
    assert.match(page.raw, /<b>12.5%<\/b> <span class="muted">\(1 of 8 addresses\)/);
    assert.match(page.raw, />10.9.0.2\/29</);
    const res = await b.form(`/ipam/prefixes/${w.prefix.id}/allocate-ip/`, { status: 'Active', interface: w.iface.id });
    assert.equal(res.status, 303);
    const ip = (await t.call('GET', '/api/ipam/ip-addresses/?address=10.9.0.2')).body.results[0];
    assert.equal(res.headers.location, `/ipam/ip-addresses/${ip.id}/`);
    const assigned = (await t.call('GET', `/api/ipam/ip-address-to-interface/?ip_address=${ip.id}`)).body.results;
    assert.deepEqual(assigned.map((a: any) => a.interface.id), [w.iface.id]);
    const device = await b.get(`/dcim/devices/${w.device.id}/`);
    assert.match(device.raw, /<section class="card" id="interfaces"><h2>Interfaces <span class="badge">1<\/span>/);
    assert.match(device.raw, new RegExp(`href="/ipam/ip-addresses/${ip.id}/">10.9.0.2/29</a>`));
  });

  it('should find objects of the kinds the reference searches through the global search', async () => {
    const res = await b.get('/search/?q=leaf');
    assert.match(res.raw, /DCIM › Devices <span class="badge">1<\/span>/);
    assert.match(res.raw, new RegExp(`href="/dcim/devices/${w.device.id}/">leaf-1</a>`));
    assert.doesNotMatch(res.raw, /<h2>[^<]*(Roles|Interfaces)/, 'roles and interfaces are not among the searchable models');
    const none = await b.get('/search/?q=zzz-nothing');
    assert.match(none.raw, /Nothing matches/);
  });

  it('should show the difference a change made', async () => {
    await t.call('PATCH', `/api/dcim/devices/${w.device.id}/`, { serial: 'SN-42' });
    const change = (await t.call('GET', `/api/extras/object-changes/?changed_object_id=${w.device.id}&action=update`)).body.results[0];
    const res = await b.get(`/extras/object-changes/${change.id}/`);
    assert.match(res.raw, /<th scope="row">serial<\/th><td class="diff-del">&quot;&quot;<\/td><td class="diff-add">&quot;SN-42&quot;<\/td>/);
  });
});
