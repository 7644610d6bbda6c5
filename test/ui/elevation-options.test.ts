import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';

let t: TestApp;
const w: Record<string, any> = {};

/** A rack with a full-depth device whose type has front and rear images, and one whose type has none. */
before(async () => {
  t = await makeApp();
  const type = await create(t, '/api/dcim/location-types/', { name: 'Site', content_types: ['dcim.device', 'dcim.rack'] });
  const site = await create(t, '/api/dcim/locations/', { name: 'Lab', location_type: type.id, status: 'Active' });
  w.rack = await create(t, '/api/dcim/racks/', { name: 'R1', location: site.id, status: 'Active', u_height: 6 });
  const maker = await create(t, '/api/dcim/manufacturers/', { name: 'Acme' });
  w.pictured = await create(t, '/api/dcim/device-types/', { manufacturer: maker.id, model: 'Pictured', u_height: 1, is_full_depth: true });
  const plain = await create(t, '/api/dcim/device-types/', { manufacturer: maker.id, model: 'Plain', u_height: 1, is_full_depth: false });
  const types = t.app.services.registry.get('dcim.devicetype');
  await t.app.services.dialect.db.updateTable(types.table).set({ front_image: 'devicetype-images/front.png', rear_image: 'devicetype-images/rear.png' }).where('id', '=', w.pictured.id).execute();
  const role = await create(t, '/api/extras/roles/', { name: 'Leaf', content_types: ['dcim.device'] });
  const base = { role: role.id, location: site.id, rack: w.rack.id, status: 'Active', face: 'front' };
  w.long = await create(t, '/api/dcim/devices/', { ...base, name: 'leaf-1.dc1.example.net', device_type: w.pictured.id, position: 2 });
  w.short = await create(t, '/api/dcim/devices/', { ...base, name: 'spine', device_type: plain.id, position: 4 });
});
after(async () => t.close());

const svg = async (query: string) => {
  const res = await t.call('GET', `/api/dcim/racks/${w.rack.id}/elevation/?render=svg${query}`);
  assert.equal(res.status, 200);
  return res.raw;
};

describe('elevation SVG: display_fullname', () => {
  it('should show full names and hide the truncated ones by default', async () => {
    const drawing = await svg('');
    assert.match(drawing, /<text [^>]*class="rack-device-fullname">leaf-1\.dc1\.example\.net<\/text>/);
    assert.match(drawing, /<text [^>]*class="rack-device-shortname hidden">leaf-1<\/text>/);
    assert.match(drawing, /<text [^>]*class="rack-device-fullname">spine<\/text>/);
  });

  it('should show the names truncated at the first dot with display_fullname=false', async () => {
    const drawing = await svg('&display_fullname=false');
    assert.match(drawing, /<text [^>]*class="rack-device-fullname hidden">leaf-1\.dc1\.example\.net<\/text>/);
    assert.match(drawing, /<text [^>]*class="rack-device-shortname">leaf-1<\/text>/);
  });

  it('should refuse a value that is not a boolean, naming the field', async () => {
    const res = await t.call('GET', `/api/dcim/racks/${w.rack.id}/elevation/?render=svg&display_fullname=maybe&include_images=x`);
    assert.deepEqual([res.status, res.body], [400, { display_fullname: ['Must be a valid boolean.'], include_images: ['Must be a valid boolean.'] }]);
  });
});

describe('elevation SVG: include_images', () => {
  it('should embed the device type front image on the front face, and none for a type without one', async () => {
    const drawing = await svg('');
    assert.equal(drawing.match(/<image /g)?.length, 1);
    assert.match(drawing, /<image class="device-image" href="\/media\/devicetype-images\/front\.png"/);
  });

  it('should embed the rear image on the rear face for a full-depth device', async () => {
    const drawing = await svg('&face=rear');
    assert.match(drawing, /<image class="device-image" href="\/media\/devicetype-images\/rear\.png"/);
    assert.doesNotMatch(drawing, /front\.png/);
  });

  it('should leave the images out with include_images=false', async () => {
    assert.doesNotMatch(await svg('&include_images=false'), /<image /);
    assert.doesNotMatch(await svg('&face=rear&include_images=False'), /<image /);
  });
});
