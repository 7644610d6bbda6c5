import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import { deviceBody, makeDcimBase } from './dcim-setup.js';
import { assertRefused } from '../../helpers/refusals.js';
import type { TestApp } from '../../helpers/app.js';
import type { DcimBase } from './dcim-setup.js';

let t: TestApp;
let base: DcimBase;

before(async () => {
  t = await makeApp();
  base = await makeDcimBase(t);
});
after(() => t.close());

const rack = (name: string, extra: Record<string, unknown> = {}) => t.call('POST', '/api/dcim/racks/', { name, location: base.site.id, status: 'Active', ...extra });

describe('location type content types', () => {
  it('should refuse racks, rack groups and power panels at a location whose type does not permit them', async () => {
    for (const [path, body] of [['racks', { name: 'r', status: 'Active' }], ['rack-groups', { name: 'g' }], ['power-panels', { name: 'p' }]] as const) {
      const res = await t.call('POST', `/api/dcim/${path}/`, { ...body, location: base.room.id });
      assert.equal(res.status, 400, path);
      assert.match(res.body.location[0], /may not associate to locations of type "Room"/, path);
    }
  });

  it('should refuse removing a content type still used at locations of the type', async () => {
    const siteType = (await t.call('GET', '/api/dcim/location-types/?name=Site')).body.results[0];
    const res = await t.call('PATCH', `/api/dcim/location-types/${siteType.id}/`, { content_types: ['dcim.device'] });
    assertRefused(res, 400, { content_types: ['Cannot remove "dcim.rack": racks are assigned to locations of type Site.'] });
    const unused = await t.call('PATCH', `/api/dcim/location-types/${siteType.id}/`, { content_types: [...siteType.content_types.filter((c: string) => c !== 'dcim.controller')] });
    assert.equal(unused.status, 200, unused.raw);
  });
});

describe('racks and rack groups', () => {
  it('should refuse a rack group outside the rack location, and accept one at an ancestor', async () => {
    const parisGroup = await create(t, '/api/dcim/rack-groups/', { name: 'Paris row', location: base.site2.id });
    const bad = await rack('r-far', { rack_group: parisGroup.id });
    assertRefused(bad, 400, { rack_group: ["The assigned rack group (Paris row) belongs to a location (Paris) that does not include this rack's location (Berlin)."] });
    const euGroup = await create(t, '/api/dcim/rack-groups/', { name: 'EU racks', location: base.region.id });
    assert.equal((await rack('r-near', { rack_group: euGroup.id })).status, 201);
  });

  it('should refuse a child group outside its parent group location', async () => {
    const parent = (await t.call('GET', '/api/dcim/rack-groups/?name=Paris row')).body.results[0];
    const res = await t.call('POST', '/api/dcim/rack-groups/', { name: 'stray', location: base.site.id, parent: parent.id });
    assertRefused(res, 400, { location: ["Location Berlin is not descended from parent rack group Paris row's location (Paris)."] });
  });

  it('should keep rack names unique within a group only', async () => {
    assert.equal((await rack('same')).status, 201);
    assert.equal((await rack('same')).status, 201, 'racks without a group do not clash');
    const group = (await t.call('GET', '/api/dcim/rack-groups/?name=EU racks')).body.results[0];
    assert.equal((await rack('grouped', { rack_group: group.id })).status, 201);
    const dup = await rack('grouped', { rack_group: group.id });
    assertRefused(dup, 400, { non_field_errors: ['The fields rack_group, name must make a unique set.'] });
  });

  it('should require a unit for outer dimensions and clear it without them', async () => {
    const bad = await rack('dims', { outer_width: 600 });
    assertRefused(bad, 400, { outer_unit: ['Must specify a unit when setting an outer width/depth'] });
    const cleared = await rack('dims', { outer_unit: 'mm' });
    assert.equal(cleared.status, 201, cleared.raw);
    assert.equal(cleared.body.outer_unit, null);
  });

  it('should move the devices of a rack moved to another location', async () => {
    const moving = (await rack('mover')).body;
    const device = await create(t, '/api/dcim/devices/', deviceBody(base, 'rider', { rack: moving.id }));
    const res = await t.call('PATCH', `/api/dcim/racks/${moving.id}/`, { location: base.site2.id });
    assert.equal(res.status, 200, res.raw);
    assert.equal((await t.call('GET', `/api/dcim/devices/${device.id}/`)).body.location.id, base.site2.id);
  });
});

describe('moves', () => {
  it('should refuse moving a rack with devices to a location whose type does not permit devices', async () => {
    const shelfType = await create(t, '/api/dcim/location-types/', { name: 'Shelf', content_types: ['dcim.rack'] });
    const shelf = await create(t, '/api/dcim/locations/', { name: 'Shelf 1', location_type: shelfType.id, status: 'Active' });
    const holder = (await rack('holder')).body;
    await create(t, '/api/dcim/devices/', deviceBody(base, 'held', { rack: holder.id }));
    const res = await t.call('PATCH', `/api/dcim/racks/${holder.id}/`, { location: shelf.id });
    assertRefused(res, 400, { location: ['Cannot move here: devices it holds may not associate to locations of type "Shelf".'] });
  });

  it('should move child groups, racks and their devices with a rack group', async () => {
    const top = await create(t, '/api/dcim/rack-groups/', { name: 'top', location: base.site.id });
    const sub = await create(t, '/api/dcim/rack-groups/', { name: 'sub', location: base.site.id, parent: top.id });
    const inner = (await rack('inner', { rack_group: sub.id })).body;
    const device = await create(t, '/api/dcim/devices/', deviceBody(base, 'inner-dev', { rack: inner.id }));
    const res = await t.call('PATCH', `/api/dcim/rack-groups/${top.id}/`, { location: base.site2.id });
    assert.equal(res.status, 200, res.raw);
    assert.equal((await t.call('GET', `/api/dcim/rack-groups/${sub.id}/`)).body.location.id, base.site2.id);
    assert.equal((await t.call('GET', `/api/dcim/racks/${inner.id}/`)).body.location.id, base.site2.id);
    assert.equal((await t.call('GET', `/api/dcim/devices/${device.id}/`)).body.location.id, base.site2.id);
  });
});

describe('rack reservations', () => {
  const reserve = (units: unknown) => t.call('POST', '/api/dcim/rack-reservations/', { rack: base.rack.id, units, description: 'held' });

  it('should refuse units the rack does not have', async () => {
    const res = await reserve([9, 10, 11]);
    assert.equal(res.status, 400);
    assert.match(res.body.units[0], /11/);
  });

  it('should refuse units another reservation of the rack holds', async () => {
    assert.equal((await reserve([1, 2])).status, 201);
    const res = await reserve([2, 3]);
    assert.equal(res.status, 400);
    assert.match(res.body.units[0], /already been reserved: 2/);
  });
});
