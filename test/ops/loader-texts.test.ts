import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../helpers/app.js';
import { Loader } from '../../src/ops/loader.js';
import type { TestApp } from '../helpers/app.js';

/**
 * The loader keeps display texts and natural slugs per row object (src/ops/loader.ts): a text
 * that depends on a related row is worked out again once a newer copy of that row is added.
 */

let t: TestApp;
let rootId: string;
let childId: string;

before(async () => {
  t = await makeApp();
  await create(t, '/api/dcim/location-types/', { name: 'Campus', nestable: true });
  rootId = (await create(t, '/api/dcim/locations/', { name: 'root', location_type: 'Campus', status: 'Active' })).id;
  childId = (await create(t, '/api/dcim/locations/', { name: 'child', location_type: 'Campus', status: 'Active', parent: rootId })).id;
});
after(() => t.close());

describe('loader texts', () => {
  it('works a slug and display out again after a newer copy of a related row', async () => {
    const { services } = t.app;
    const model = services.registry.get('dcim.location');
    const loader = new Loader(services, services.dialect.db);
    const [child] = await loader.ensure(model, [childId]);
    await loader.ensureNeeds(model, [child]);
    const slug = loader.naturalSlug(model, child);
    const display = loader.display(model, child);
    assert.match(slug, /^child_root_/);
    assert.equal(loader.naturalSlug(model, child), slug);
    const root = loader.get(model.id, rootId);
    assert.ok(root);
    loader.add(model, [{ ...root, name: 'renamed', _name: 'renamed' }]);
    assert.match(loader.naturalSlug(model, child), /^child_renamed_/);
    assert.notEqual(loader.display(model, child), display);
    assert.equal(loader.display(model, child), display.replace('root', 'renamed'));
  });
});

describe('natural slugs with an unset FK', () => {
  it('renders an unset module of each interface on a page as its null parts', async () => {
    await create(t, '/api/dcim/location-types/', { name: 'Site', content_types: ['dcim.device'] });
    const site = await create(t, '/api/dcim/locations/', { name: 'site1', location_type: 'Site', status: 'Active' });
    const maker = await create(t, '/api/dcim/manufacturers/', { name: 'maker' });
    const type = await create(t, '/api/dcim/device-types/', { manufacturer: maker.id, model: 'box' });
    const role = await create(t, '/api/extras/roles/', { name: 'edge', content_types: ['dcim.device'] });
    const device = await create(t, '/api/dcim/devices/', { name: 'd1', device_type: type.id, role: role.id, location: site.id, status: 'Active' });
    await create(t, '/api/dcim/interfaces/', [1, 2, 3].map((n) => ({ device: device.id, name: `e${n}`, type: '1000base-t', status: 'Active' })));
    const res = await t.call('GET', '/api/dcim/interfaces/?device=d1', undefined, { headers: { 'cache-control': 'no-cache' } });
    assert.equal(res.status, 200, res.raw);
    const results = res.body.results as { id: string; name: string; natural_slug: string }[];
    assert.equal(results.length, 3);
    // The device's name, its unset tenant, its location and that location's unset parent; then the unset module.
    for (const r of results) assert.equal(r.natural_slug, `d1__site1___${r.name}_${r.id.slice(0, 4)}`);
  });
});
