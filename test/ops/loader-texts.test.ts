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
