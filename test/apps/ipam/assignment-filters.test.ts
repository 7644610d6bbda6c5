import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, listed, makeApp } from '../../helpers/app.js';
import { deviceBody, makeDcimBase } from '../dcim/dcim-setup.js';
import type { TestApp } from '../../helpers/app.js';

let t: TestApp;
const o: Record<string, any> = {};

/** Sorted names of a list's results. */
const names = (url: string): Promise<string[]> => listed(t, url);

before(async () => {
  t = await makeApp();
  const base = await makeDcimBase(t);
  Object.assign(o, base);
  const vlan = (vid: number, name: string, location?: string) => create(t, '/api/ipam/vlans/', { vid, name, status: 'Active', ...(location ? { location } : {}) });
  await vlan(1, 'everywhere');
  await vlan(2, 'eu', base.region.id);
  await vlan(3, 'berlin', base.site.id);
  await vlan(4, 'paris', base.site2.id);
  o.d1 = await create(t, '/api/dcim/devices/', deviceBody(base, 'd1'));
  o.red = await create(t, '/api/ipam/vrfs/', { name: 'red', rd: '65000:1' });
  o.blue = await create(t, '/api/ipam/vrfs/', { name: 'blue', rd: '65000:2' });
  await create(t, '/api/ipam/vrf-device-assignments/', { vrf: o.red.id, device: o.d1.id });
  o.p1 = await create(t, '/api/ipam/prefixes/', { prefix: '10.0.0.0/24', namespace: 'Global', status: 'Active' });
  o.p2 = await create(t, '/api/ipam/prefixes/', { prefix: '10.1.0.0/24', namespace: 'Global', status: 'Active' });
  await create(t, '/api/ipam/vrf-prefix-assignments/', { vrf: o.red.id, prefix: o.p1.id });
  await create(t, '/api/ipam/vrf-prefix-assignments/', { vrf: o.blue.id, prefix: o.p2.id });
});
after(() => t.close());

describe('VLANs by location', () => {
  it('should match the location or any of its descendants, by id or name', async () => {
    assert.deepEqual(await names('/api/ipam/vlans/?location=EU'), ['berlin', 'eu', 'paris']);
    assert.deepEqual(await names(`/api/ipam/vlans/?location=${o.site.id}`), ['berlin']);
    assert.deepEqual(await names('/api/ipam/vlans/?location=Berlin&location=Paris'), ['berlin', 'paris']);
    assert.deepEqual(await names('/api/ipam/vlans/?location__n=Berlin'), ['eu', 'everywhere', 'paris']);
    const bad = await t.call('GET', '/api/ipam/vlans/?location=Atlantis');
    assert.equal(bad.status, 400);
    assert.match(bad.body.location[0], /^Select a valid choice/);
  });

  it('should list the VLANs available on a device: unplaced ones and those at its location or above', async () => {
    assert.deepEqual(await names(`/api/ipam/vlans/?available_on_device=${o.d1.id}`), ['berlin', 'eu', 'everywhere']);
    assert.deepEqual(await names('/api/ipam/vlans/?available_on_device=00000000-0000-4000-8000-000000000000'), []);
  });
});

describe('VRFs by device and prefix', () => {
  it('should match VRFs assigned to a device, by id or name', async () => {
    assert.deepEqual(await names('/api/ipam/vrfs/?device=d1'), ['red']);
    assert.deepEqual(await names(`/api/ipam/vrfs/?device__n=${o.d1.id}`), ['blue']);
    const bad = await t.call('GET', '/api/ipam/vrfs/?device=nope');
    assert.equal(bad.status, 400);
    assert.match(bad.body.device[0], /^Select a valid choice/);
  });

  it('should match VRFs assigned to a prefix given as CIDR', async () => {
    assert.deepEqual(await names('/api/ipam/vrfs/?prefix=10.0.0.0/24'), ['red']);
    assert.deepEqual(await names('/api/ipam/vrfs/?prefix=10.1.0.0/24'), ['blue']);
    assert.deepEqual(await names('/api/ipam/vrfs/?prefix=10.9.0.0/24'), []);
  });
});
