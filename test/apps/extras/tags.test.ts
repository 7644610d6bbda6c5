import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import { assertRefused } from '../../helpers/refusals.js';
import type { TestApp } from '../../helpers/app.js';

let t: TestApp;
const MODELS = [
  { model: 'dcim.location', path: '/api/dcim/locations/', make: (name: string) => ({ name, location_type: 'Campus', status: 'Active' }) },
  { model: 'tenancy.tenant', path: '/api/tenancy/tenants/', make: (name: string) => ({ name }) },
  { model: 'circuits.provider', path: '/api/circuits/providers/', make: (name: string) => ({ name }) },
];
let gold: any;
let blue: any;

before(async () => {
  t = await makeApp();
  await create(t, '/api/dcim/location-types/', { name: 'Campus', content_types: ['dcim.location'] });
  gold = await create(t, '/api/extras/tags/', { name: 'gold', content_types: MODELS.map((m) => m.model) });
  blue = await create(t, '/api/extras/tags/', { name: 'blue', content_types: MODELS.map((m) => m.model) });
  for (const m of MODELS) {
    await create(t, m.path, { ...m.make('both'), tags: [gold.id, blue.id] });
    await create(t, m.path, { ...m.make('gold-only'), tags: [{ name: 'gold' }] });
  }
});
after(() => t.close());

describe('tags (API-SPEC filtering rule 2; catalogue tag rules)', () => {
  for (const m of MODELS) {
    it(`should AND repeated tag and tags filters (${m.model})`, async () => {
      // "Repeating one parameter gives logical OR ... except for multi-valued fields such as tags, where repeating it gives logical AND"
      for (const name of ['tag', 'tags']) {
        const both = await t.call('GET', `${m.path}?${name}=gold&${name}=blue`);
        assert.deepEqual(both.body.results.map((r: any) => r.name), ['both'], name);
        assert.equal((await t.call('GET', `${m.path}?${name}=gold`)).body.count, 2);
      }
    });
  }

  it('should apply a tag only to the models in its content types', async () => {
    const narrow = await create(t, '/api/extras/tags/', { name: 'narrow', content_types: ['tenancy.tenant'] });
    const res = await t.call('POST', '/api/dcim/locations/', { ...MODELS[0].make('x'), tags: [narrow.id] });
    assertRefused(res, 400, { tags: [`Related object not found using the provided attributes: {'pk': UUID('${narrow.id}')}`] });
  });

  it('should refuse removing a content type while objects of that type carry the tag', async () => {
    // catalogue: "on update, a content type cannot be removed while objects of that type still carry the tag"
    const res = await t.call('PATCH', `/api/extras/tags/${blue.id}/`, { content_types: ['circuits.provider'] });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { content_types: ['Unable to remove dcim.location. Dependent objects were found.', 'Unable to remove tenancy.tenant. Dependent objects were found.'] });
    const unused = await create(t, '/api/extras/tags/', { name: 'spare', content_types: ['dcim.location', 'tenancy.tenant'] });
    assert.equal((await t.call('PATCH', `/api/extras/tags/${unused.id}/`, { content_types: ['tenancy.tenant'] })).status, 200);
    for (const m of MODELS) {
      const both = (await t.call('GET', `${m.path}?name=both`)).body.results[0];
      await t.call('PATCH', `${m.path}${both.id}/`, { tags: [gold.id] });
    }
    const freed = await t.call('PATCH', `/api/extras/tags/${blue.id}/`, { content_types: ['circuits.provider'] });
    assert.equal(freed.status, 200, freed.raw);
  });
});
