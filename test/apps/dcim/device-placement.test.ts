import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import { SITE_CONTENT_TYPES, deviceBody, makeDcimBase } from './dcim-setup.js';
import { assertRefused } from '../../helpers/refusals.js';
import type { TestApp } from '../../helpers/app.js';
import type { DcimBase } from './dcim-setup.js';

let t: TestApp;
let base: DcimBase;
let halfDepth: any;
let tall: any;
let zeroU: any;
let child: any;

before(async () => {
  t = await makeApp();
  base = await makeDcimBase(t);
  const m = base.manufacturer.id;
  halfDepth = await create(t, '/api/dcim/device-types/', { model: 'Half', manufacturer: m, u_height: 1, is_full_depth: false });
  tall = await create(t, '/api/dcim/device-types/', { model: 'Tall 4U', manufacturer: m, u_height: 4 });
  zeroU = await create(t, '/api/dcim/device-types/', { model: 'PDU', manufacturer: m, u_height: 0 });
  child = await create(t, '/api/dcim/device-types/', { model: 'Blade', manufacturer: m, u_height: 0, subdevice_role: 'child' });
});
after(() => t.close());

/** POSTs a device and returns the response. */
const post = (name: string, extra: Record<string, unknown> = {}) => t.call('POST', '/api/dcim/devices/', deviceBody(base, name, extra));

describe('device location and rack', () => {
  it('should refuse a location whose type does not permit devices', async () => {
    const res = await post('in-room', { location: base.room.id });
    assert.equal(res.status, 400);
    assert.match(res.body.location[0], /Devices may not associate to locations of type "Room"/);
  });

  it('should refuse a rack outside the device location subtree and accept one below it', async () => {
    const res = await post('far', { location: base.site2.id, rack: base.rack.id });
    assertRefused(res, 400, { rack: ['Rack R1 does not belong to location Paris or any of its descendant locations.'] });
    const hallType = await create(t, '/api/dcim/location-types/', { name: 'Hall', parent: (await t.call('GET', '/api/dcim/location-types/?name=Site')).body.results[0].id, content_types: SITE_CONTENT_TYPES });
    const hall = await create(t, '/api/dcim/locations/', { name: 'Hall A', location_type: hallType.id, parent: base.site.id, status: 'Active' });
    const lowRack = await create(t, '/api/dcim/racks/', { name: 'Hall rack', location: hall.id, status: 'Active' });
    const ok = await post('near', { location: base.site.id, rack: lowRack.id });
    assert.equal(ok.status, 201, ok.raw);
  });

  it('should require a rack for face and position, and a face for a position', async () => {
    const noRack = await post('floating', { face: 'front', position: 3 });
    assertRefused(noRack, 400, { face: ['Cannot select a rack face without assigning a rack.'], position: ['Cannot select a rack position without assigning a rack.'] });
    const noFace = await post('faceless', { rack: base.rack.id, position: 3 });
    assertRefused(noFace, 400, { face: ['Must specify rack face when defining rack position.'] });
  });

  it('should refuse a position for a 0U type and a face or position for a child type', async () => {
    const pdu = await post('pdu', { device_type: zeroU.id, rack: base.rack.id, face: 'rear', position: 2 });
    assertRefused(pdu, 400, { position: ['A U0 device type (PDU) cannot be assigned to a rack position.'] });
    assert.equal((await post('pdu-ok', { device_type: zeroU.id, rack: base.rack.id, face: 'rear' })).status, 201);
    const blade = await post('blade', { device_type: child.id, rack: base.rack.id, face: 'front' });
    assertRefused(blade, 400, { face: ['Child device types cannot be assigned to a rack face. This is an attribute of the parent device.'] });
  });
});

describe('rack units', () => {
  it('should refuse overlapping units and units beyond the rack', async () => {
    assert.equal((await post('big', { device_type: tall.id, rack: base.rack.id, face: 'front', position: 1 })).status, 201);
    const overlap = await post('clash', { rack: base.rack.id, face: 'front', position: 4 });
    assert.equal(overlap.status, 400);
    assert.match(overlap.body.position[0], /U4 is already occupied/);
    const beyond = await post('roof', { device_type: tall.id, rack: base.rack.id, face: 'front', position: 8 });
    assertRefused(beyond, 400, { position: ['U8 is already occupied or does not have sufficient space to accommodate a(n) Tall 4U (4U).'] }, 'units 8-11 do not exist in a 10U rack');
  });

  it('should let two half-depth devices share a unit on opposite faces, but not with a full-depth one', async () => {
    assert.equal((await post('front-half', { device_type: halfDepth.id, rack: base.rack.id, face: 'front', position: 6 })).status, 201);
    assert.equal((await post('rear-half', { device_type: halfDepth.id, rack: base.rack.id, face: 'rear', position: 6 })).status, 201);
    const full = await post('full', { rack: base.rack.id, face: 'rear', position: 1 });
    assertRefused(full, 400, { position: ['U1 is already occupied or does not have sufficient space to accommodate a(n) Box 1U (1U).'] }, 'the 4U full-depth device takes the rear of units 1-4 too');
  });

  it('should refuse overlaps between devices of the same request, and an exact repeat as a unique set', async () => {
    const batch = await t.call('POST', '/api/dcim/devices/', [
      deviceBody(base, 'b1', { device_type: tall.id, rack: base.rack.id, face: 'front', position: 7 }),
      deviceBody(base, 'b2', { rack: base.rack.id, face: 'front', position: 9 }),
    ]);
    assert.equal(batch.status, 400);
    assert.deepEqual(batch.body[0], {});
    assert.ok(batch.body[1].position);
    const repeat = await post('again', { rack: base.rack.id, face: 'front', position: 6 });
    assert.equal(repeat.status, 400);
    assert.deepEqual(repeat.body, { non_field_errors: ['The fields rack, position, face must make a unique set.'] });
  });

  it('should ignore the device itself when it moves within its units', async () => {
    const big = (await t.call('GET', '/api/dcim/devices/?name=big')).body.results[0];
    const res = await t.call('PATCH', `/api/dcim/devices/${big.id}/`, { position: 2 });
    assert.equal(res.status, 200, res.raw);
  });

  it('should refuse a rack shorter than its highest mounted device', async () => {
    const res = await t.call('PATCH', `/api/dcim/racks/${base.rack.id}/`, { u_height: 4 });
    assert.equal(res.status, 400);
    assert.match(res.body.u_height[0], /at least 6U/);
  });

  it('should refuse a taller device type when a device of it no longer fits, and 0U while mounted', async () => {
    assert.equal((await post('top', { device_type: halfDepth.id, rack: base.rack.id, face: 'front', position: 10 })).status, 201);
    const grow = await t.call('PATCH', `/api/dcim/device-types/${halfDepth.id}/`, { u_height: 2 });
    assertRefused(grow, 400, { u_height: ['Device top in rack R1 does not have sufficient space to accommodate a height of 2U'] });
    const flat = await t.call('PATCH', `/api/dcim/device-types/${tall.id}/`, { u_height: 0 });
    assert.equal(flat.status, 400);
    assert.match(flat.body.u_height[0], /0U/);
  });
});
