import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import { assertRefused, countOf } from '../../helpers/refusals.js';
import type { TestApp } from '../../helpers/app.js';

let t: TestApp;
let type: any;
let other: any;
let site: any;
const PATH = '/api/extras/object-metadata/';

before(async () => {
  t = await makeApp();
  type = await create(t, '/api/extras/metadata-types/', { name: 'Owner', data_type: 'text', content_types: ['dcim.location'] });
  other = await create(t, '/api/extras/metadata-types/', { name: 'Source', data_type: 'text', content_types: ['dcim.location'] });
  const locationType = await create(t, '/api/dcim/location-types/', { name: 'Site' });
  site = await create(t, '/api/dcim/locations/', { name: 'DC1', location_type: locationType.id, status: 'Active' });
});
after(() => t.close());

const body = (scoped: string[], extra: Record<string, unknown> = {}) => ({ metadata_type: type.id, assigned_object_type: 'dcim.location', assigned_object_id: site.id, scoped_fields: scoped, value: 'ops', ...extra });

describe('object metadata scoped_fields', () => {
  it('should refuse a second metadata of one type scoping a field already scoped on the object', async () => {
    const first = await create(t, PATH, body(['name', 'description']));
    assert.equal(first.display, 'Owner - DC1 - ops');
    const count = await countOf(t, PATH);
    assertRefused(await t.call('POST', PATH, body(['description', 'status'])), 400, { scoped_fields: ["There are other Object Metadata instances of metadata type Owner scoping the same fields {'description'} for DC1"] });
    assertRefused(await t.call('POST', PATH, body([])), 400, { scoped_fields: ['This Object Metadata Owner - DC1 - ops scoping all the fields for DC1 has overlapped with the scoped fields of other Object Metadata instances.'] });
    assert.equal(await countOf(t, PATH), count);
  });

  it('should accept disjoint fields, another metadata type, and an update of the row itself', async () => {
    const disjoint = await create(t, PATH, body(['status']));
    await create(t, PATH, body([], { metadata_type: other.id }));
    const res = await t.call('PATCH', `${PATH}${disjoint.id}/`, { scoped_fields: ['status', 'tenant'] });
    assert.equal(res.status, 200, res.raw);
  });

  it('should refuse overlaps against a metadata scoping every field, and inside one bulk request', async () => {
    assertRefused(await t.call('POST', PATH, body(['comments'], { metadata_type: other.id })), 400, { scoped_fields: ['There are other Object Metadata instances of metadata type Source scoping all the fields for DC1'] });
    const type3 = await create(t, '/api/extras/metadata-types/', { name: 'Third', data_type: 'text', content_types: ['dcim.location'] });
    const bulk = await t.call('POST', PATH, [body(['name'], { metadata_type: type3.id }), body(['name'], { metadata_type: type3.id })]);
    assertRefused(bulk, 400, [{}, { scoped_fields: ["There are other Object Metadata instances of metadata type Third scoping the same fields {'name'} for DC1"] }]);
  });
});
