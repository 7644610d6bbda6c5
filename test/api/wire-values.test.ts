import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';

let t: TestApp;
let deviceType: any;
before(async () => {
  t = await makeApp();
  const manufacturer = await create(t, '/api/dcim/manufacturers/', { name: 'Acme' });
  deviceType = await create(t, '/api/dcim/device-types/', { model: 'Box', manufacturer: manufacturer.id });
});
after(() => t.close());

describe('empty values as the reference renders them', () => {
  it('should render a location without a time zone as null, and one with a time zone by name', async () => {
    const type = await create(t, '/api/dcim/location-types/', { name: 'Site' });
    const plain = await create(t, '/api/dcim/locations/', { name: 'A', location_type: type.id, status: 'Active' });
    const zoned = await create(t, '/api/dcim/locations/', { name: 'B', location_type: type.id, status: 'Active', time_zone: 'Europe/Berlin' });
    assert.equal(plain.time_zone, null);
    assert.equal((await t.call('GET', `/api/dcim/locations/${plain.id}/`)).body.time_zone, null);
    assert.equal(zoned.time_zone, 'Europe/Berlin');
  });

  it('should render device type images without a file as null', async () => {
    const got = (await t.call('GET', `/api/dcim/device-types/${deviceType.id}/`)).body;
    assert.deepEqual([got.front_image, got.rear_image], [null, null]);
  });

  it('should render bare-value choices left empty as "" (interface template duplex, integration http_method)', async () => {
    const template = await create(t, '/api/dcim/interface-templates/', { device_type: deviceType.id, name: 'ge0', type: '1000base-t' });
    assert.equal(template.duplex, '');
    const secrets = await create(t, '/api/extras/external-integrations/', { name: 'ei', remote_url: 'https://example.com' });
    assert.equal(secrets.http_method, '');
  });

  it('should give component templates a null notes_url and no notes route, as the reference', async () => {
    const template = await create(t, '/api/dcim/console-port-templates/', { device_type: deviceType.id, name: 'con0' });
    assert.equal(template.notes_url, null);
    assert.deepEqual(Object.keys(template).slice(0, 6), ['id', 'object_type', 'display', 'url', 'natural_slug', 'notes_url']);
    assert.equal((await t.call('GET', `/api/dcim/console-port-templates/${template.id}/notes/`)).status, 405);
    assert.equal((await t.call('GET', `/api/dcim/device-types/${deviceType.id}/?depth=0`)).body.notes_url.endsWith('/notes/'), true);
  });
});
