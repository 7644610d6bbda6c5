import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import { deviceBody, makeDcimBase } from './dcim-setup.js';
import type { TestApp } from '../../helpers/app.js';
import type { DcimBase } from './dcim-setup.js';

let t: TestApp;
let base: DcimBase;
let router: any;
let eth0: any;
let eth1: any;

before(async () => {
  t = await makeApp();
  base = await makeDcimBase(t);
  router = await create(t, '/api/dcim/devices/', deviceBody(base, 'edge-1'));
  const peer = await create(t, '/api/dcim/devices/', deviceBody(base, 'edge-2'));
  eth0 = await create(t, '/api/dcim/interfaces/', { device: router.id, name: 'eth0', type: '1000base-t', status: 'Active' });
  eth1 = await create(t, '/api/dcim/interfaces/', { device: peer.id, name: 'eth1', type: '1000base-t', status: 'Active' });
  await create(t, '/api/dcim/cables/', { termination_a_type: 'dcim.interface', termination_a_id: eth0.id, termination_b_type: 'dcim.interface', termination_b_id: eth1.id, status: 'Connected' });
});
after(() => t.close());

/** The brief form of an object as the API rendered it at the top level. */
const brief = (obj: { id: string; object_type: string; url: string }) => ({ id: obj.id, object_type: obj.object_type, url: obj.url });

describe('related objects at the edge of a nested object', () => {
  it('should let the Ansible inventory group devices by manufacturer from devices/?depth=1', async () => {
    // The requests nautobot.nautobot.inventory sends, and the keys it reads (extract_manufacturer).
    const manufacturers = (await t.call('GET', '/api/dcim/manufacturers/?limit=0&exclude_m2m=False')).body.results;
    const lookup = new Map(manufacturers.map((m: any) => [m.id, m.name]));
    const devices = (await t.call('GET', '/api/dcim/devices/?limit=0&depth=1&exclude_m2m=False')).body.results;
    const groups = devices.map((host: any) => lookup.get(host.device_type.manufacturer.id));
    assert.deepEqual(groups, ['Acme', 'Acme']);
    assert.deepEqual(devices[0].device_type.manufacturer, brief(base.manufacturer));
  });

  it('should render an empty edge as null and go one level further at depth 2', async () => {
    const d1 = (await t.call('GET', `/api/dcim/devices/${router.id}/?depth=1`)).body;
    assert.equal(d1.device_type.device_family, null);
    assert.deepEqual(d1.location.parent, brief(base.region));
    const d2 = (await t.call('GET', `/api/dcim/devices/${router.id}/?depth=2`)).body;
    assert.equal(d2.device_type.manufacturer.name, 'Acme');
    assert.deepEqual(d2.location.parent.location_type, base.region.location_type);
  });

  it('should render a generic relation at the edge as {id, object_type, url}', async () => {
    const got = (await t.call('GET', `/api/dcim/interfaces/${eth0.id}/?depth=1`)).body;
    assert.equal(got.cable.generic_foreign_key, undefined);
    assert.deepEqual(got.cable.termination_a, brief(eth0));
    assert.deepEqual(got.cable.termination_b, brief(eth1));
    assert.equal(got.connected_endpoint.generic_foreign_key, true);
    assert.deepEqual(Object.keys(got.connected_endpoint.device), ['id', 'object_type', 'url']);
  });

  it('should keep the brief edge objects in the change log snapshot (depth 1)', async () => {
    const changes = (await t.call('GET', `/api/extras/object-changes/?changed_object_id=${router.id}`)).body.results;
    const snapshot = changes[0].object_data_v2;
    // Serialized without a request, as the reference's: URLs are paths.
    assert.deepEqual(snapshot.device_type.manufacturer, { ...brief(base.manufacturer), url: new URL(base.manufacturer.url).pathname });
  });
});
