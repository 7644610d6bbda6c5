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
  const type = await create(t, '/api/dcim/location-types/', { name: 'Site', content_types: ['dcim.device'] });
  const site = await create(t, '/api/dcim/locations/', { name: 'Lab', location_type: type.id, status: 'Active' });
  const maker = await create(t, '/api/dcim/manufacturers/', { name: 'Acme' });
  const deviceType = await create(t, '/api/dcim/device-types/', { manufacturer: maker.id, model: 'Box' });
  const role = await create(t, '/api/extras/roles/', { name: 'Leaf', content_types: ['dcim.device'] });
  w.device = await create(t, '/api/dcim/devices/', { name: 'leaf-1', device_type: deviceType.id, role: role.id, location: site.id, status: 'Active' });
  await create(t, '/api/dcim/interfaces/', ['eth0', 'eth1'].map((name) => ({ device: w.device.id, name, type: '1000base-t', status: 'Active' })));
  await create(t, '/api/dcim/console-ports/', { device: w.device.id, name: 'con0' });
  b = new Browser(t);
  await b.login();
});
after(async () => t.close());

describe('reverse relations on a detail page', () => {
  it('should show a table for each relation holding objects, none for the empty ones, and the interfaces once', async () => {
    const page = (await b.get(`/dcim/devices/${w.device.id}/`)).raw;
    assert.match(page, /<h2>Console ports <span class="badge">1<\/span><\/h2><ul class="plain"><li><a href="\/dcim\/console-ports\/[0-9a-f-]+\/">con0<\/a><\/li><\/ul>/);
    assert.doesNotMatch(page, /<h2>Power ports/, 'an empty relation has no table');
    assert.equal(page.match(/<h2>Interfaces /g)?.length, 1, 'the device section shows the interfaces; the generic table leaves them out');
    assert.match(page, /<section class="card" id="interfaces"><h2>Interfaces <span class="badge">2<\/span>/);
  });

  it('should still list a location\'s devices in its generic table', async () => {
    const location = w.device.location.id;
    assert.match((await b.get(`/dcim/locations/${location}/`)).raw, /<h2>Devices <span class="badge">1<\/span><\/h2>/);
  });
});
