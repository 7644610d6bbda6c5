import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import { deviceBody, makeDcimBase } from './dcim-setup.js';
import { assertRefused } from '../../helpers/refusals.js';
import type { TestApp } from '../../helpers/app.js';
import type { DcimBase } from './dcim-setup.js';

let t: TestApp;
let base: DcimBase;
let device: any;
let lineCard: any;
let bays: any[];

before(async () => {
  t = await makeApp();
  base = await makeDcimBase(t);
  device = await create(t, '/api/dcim/devices/', deviceBody(base, 'chassis'));
  bays = await create(t, '/api/dcim/module-bays/', [
    { parent_device: device.id, name: 'Slot 1', position: '1' },
    { parent_device: device.id, name: 'Slot 2', position: '2', requires_first_party_modules: true },
    { parent_device: device.id, name: 'Slot 3' },
  ]);
  lineCard = await create(t, '/api/dcim/module-types/', { model: 'LC-8', manufacturer: base.manufacturer.id });
  await create(t, '/api/dcim/interface-templates/', [0, 1].map((i) => ({ module_type: lineCard.id, name: `et-{module}/0/${i}`, type: '10gbase-x-sfpp' })));
  await create(t, '/api/dcim/module-bay-templates/', { module_type: lineCard.id, name: 'sub', position: 'a' });
});
after(() => t.close());

const post = (body: Record<string, unknown>) => t.call('POST', '/api/dcim/modules/', { module_type: lineCard.id, status: 'Active', ...body });

describe('modules', () => {
  it('should instantiate the module type templates with names rendered from the bay position', async () => {
    const module = (await post({ parent_module_bay: bays[0].id })).body;
    const names = (await t.call('GET', `/api/dcim/interfaces/?module=${module.id}`)).body.results.map((i: any) => i.name).sort();
    assert.deepEqual(names, ['et-1/0/0', 'et-1/0/1']);
    assert.equal((await t.call('GET', `/api/dcim/module-bays/?parent_module=${module.id}`)).body.count, 1);
  });

  it('should render names left with placeholders when a stored module is installed in a bay', async () => {
    const stored = (await post({ location: base.site.id })).body;
    const before = (await t.call('GET', `/api/dcim/interfaces/?module=${stored.id}`)).body.results.map((i: any) => i.name).sort();
    assert.deepEqual(before, ['et-{module}/0/0', 'et-{module}/0/1']);
    const res = await t.call('PATCH', `/api/dcim/modules/${stored.id}/`, { location: null, parent_module_bay: bays[2].id });
    assert.equal(res.status, 200, res.raw);
    const after = (await t.call('GET', `/api/dcim/interfaces/?module=${stored.id}`)).body.results.map((i: any) => i.name).sort();
    assert.deepEqual(after, ['et-Slot 3/0/0', 'et-Slot 3/0/1']);
    assert.equal((await t.call('PATCH', `/api/dcim/modules/${stored.id}/`, { parent_module_bay: null, location: base.site.id })).status, 200);
  });

  it('should require exactly one of location or bay, at a location whose type permits modules', async () => {
    assertRefused(await post({}), 400, { __all__: ['One of location or parent_module_bay must be set'] });
    assertRefused(await post({ location: base.site.id, parent_module_bay: bays[2].id }), 400, { __all__: ['Only one of location or parent_module_bay must be set'] });
    assertRefused(await post({ location: base.room.id }), 400, { location: ['Modules may not associate to locations of type "Room".'] });
    const stored = await post({ location: base.site.id, serial: '', asset_tag: '' });
    assert.equal(stored.status, 201, stored.raw);
    assert.equal(stored.body.serial, null);
  });

  it('should refuse a second module in a bay, and a module inside itself', async () => {
    assertRefused(await post({ parent_module_bay: bays[0].id }), 400, { parent_module_bay: ['Module with this parent module bay already exists.'] });
    const outer = (await t.call('GET', `/api/dcim/modules/?parent_module_bay=${bays[0].id}`)).body.results[0];
    const inner = (await post({ parent_module_bay: (await t.call('GET', `/api/dcim/module-bays/?parent_module=${outer.id}`)).body.results[0].id })).body;
    const innerBay = (await t.call('GET', `/api/dcim/module-bays/?parent_module=${inner.id}`)).body.results[0];
    const loop = await t.call('PATCH', `/api/dcim/modules/${outer.id}/`, { parent_module_bay: innerBay.id });
    assertRefused(loop, 400, { parent_module_bay: ['A module cannot be installed inside itself.'] });
  });

  it('should honour the bay family and first-party requirements', async () => {
    const other = await create(t, '/api/dcim/manufacturers/', { name: 'Third party' });
    const foreign = await create(t, '/api/dcim/module-types/', { model: 'TP-1', manufacturer: other.id });
    assertRefused(await post({ module_type: foreign.id, parent_module_bay: bays[1].id }), 400, { module_type: ["The bay Slot 2 requires first-party modules; the module type's manufacturer must match the parent's manufacturer."] });
    const family = await create(t, '/api/dcim/module-families/', { name: 'PSU' });
    const psuBay = await create(t, '/api/dcim/module-bays/', { parent_device: device.id, name: 'PSU bay', module_family: family.id });
    assertRefused(await post({ parent_module_bay: psuBay.id }), 400, { module_type: ['Module type LC-8 is not in the module family PSU that the bay PSU bay requires.'] });
  });

  it('should require exactly one parent for a module bay and fill a blank position with the name', async () => {
    assertRefused(await t.call('POST', '/api/dcim/module-bays/', { name: 'orphan' }), 400, { __all__: ['Either parent_device or parent_module must be set'] });
    assert.equal(bays[2].position, 'Slot 3');
  });
});
