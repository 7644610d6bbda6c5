import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import { assertRefused } from '../../helpers/refusals.js';
import type { TestApp } from '../../helpers/app.js';

let t: TestApp;
let region: any;
let site: any;
before(async () => {
  t = await makeApp();
  region = await create(t, '/api/dcim/location-types/', { name: 'Region', content_types: ['dcim.location'] });
  site = await create(t, '/api/dcim/location-types/', { name: 'Site', parent: region.id });
});
after(() => t.close());

describe('location tree rules', () => {
  it('should require the parent the location type asks for', async () => {
    const orphan = await t.call('POST', '/api/dcim/locations/', { name: 'lonely', location_type: 'Site', status: 'Active' });
    assertRefused(orphan, 400, { parent: ['A Location of type Site must have a parent Location.'] });
    const eu = await create(t, '/api/dcim/locations/', { name: 'EU', location_type: region.id, status: 'Active' });
    const child = await t.call('POST', '/api/dcim/locations/', { name: 'Nested', location_type: 'Region', status: 'Active', parent: eu.id });
    assertRefused(child, 400, { parent: ['A Location of type Region may not have a parent Location.'] }, 'a non-nestable type takes no parent of its own type');
  });

  it('should resolve related objects by natural key, attributes, URL and {id}', async () => {
    const eu = (await t.call('GET', '/api/dcim/locations/?name=EU')).body.results[0];
    const a = await create(t, '/api/dcim/locations/', { name: 'Berlin', location_type: { name: 'Site' }, status: 'Active', parent: 'EU' });
    const b = await create(t, '/api/dcim/locations/', { name: 'Paris', location_type: site.url, status: { id: a.status.id }, parent: { name: 'EU' } });
    assert.equal(a.parent.id, eu.id);
    assert.equal(b.parent.id, eu.id);
    assert.equal(a.display, 'EU → Berlin');
    assert.equal(a.natural_slug, `berlin_eu_${a.id.slice(0, 4)}`);
    const byKey = await t.call('GET', '/api/dcim/locations/Berlin;EU/');
    assert.equal(byKey.body.id, a.id);
  });

  it('should name the field when a reference matches nothing', async () => {
    const res = await t.call('POST', '/api/dcim/locations/', { name: 'x', location_type: '00000000-0000-4000-8000-000000000000', status: { name: 'bogus' } });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body.location_type, ["Related object not found using the provided attributes: {'pk': UUID('00000000-0000-4000-8000-000000000000')}"]);
    assert.deepEqual(res.body.status, ["Related object not found using the provided attributes: {'name': 'bogus'}"]);
  });

  it('should refuse a status not enabled for the model', async () => {
    const res = await t.call('POST', '/api/dcim/locations/', { name: 'x', location_type: 'Region', status: 'Connected' });
    assertRefused(res, 400, { status: ["Related object not found using the provided attributes: {'name': 'Connected'}"] });
  });

  it('should refuse duplicate root names with the reference message', async () => {
    const res = await t.call('POST', '/api/dcim/locations/', { name: 'EU', location_type: 'Region', status: 'Active' });
    assertRefused(res, 400, { name: ['A root-level location with this name already exists.'] });
  });

  it('should filter by tree parent including descendants and by natural key', async () => {
    const res = await t.call('GET', '/api/dcim/locations/?parent=EU');
    assert.deepEqual(res.body.results.map((r: { name: string }) => r.name).sort(), ['Berlin', 'Paris']);
    const bad = await t.call('GET', '/api/dcim/locations/?status=bogus');
    assertRefused(bad, 400, { status: ['Select a valid choice. bogus is not one of the available choices.'] });
    const badId = await t.call('GET', '/api/dcim/locations/?id=not-a-uuid');
    assertRefused(badId, 400, { id: ['Enter a valid UUID.'] });
  });
});

describe('depth', () => {
  it('should render FKs as {id, object_type, url} at depth 0 and nest at depth 1 with {id, object_type, url} at the edge', async () => {
    const berlin = (await t.call('GET', '/api/dcim/locations/?name=Berlin')).body.results[0];
    assert.deepEqual(Object.keys(berlin.location_type), ['id', 'object_type', 'url']);
    const d1 = (await t.call('GET', `/api/dcim/locations/${berlin.id}/?depth=1`)).body;
    assert.equal(d1.location_type.name, 'Site');
    assert.deepEqual(Object.keys(d1.location_type.parent), ['id', 'object_type', 'url']);
    assert.equal(d1.location_type.parent.object_type, 'dcim.locationtype');
    assert.equal(d1.parent.tree_depth, undefined, 'nested objects omit tree_depth');
    assert.equal(d1.parent.device_count, undefined, 'nested objects omit counts');
    assert.equal(d1.parent.tags, undefined, 'nested objects omit tags');
    const d2 = (await t.call('GET', `/api/dcim/locations/${berlin.id}/?depth=2`)).body;
    assert.equal(d2.location_type.parent.name, 'Region');
  });

  it('should render tags as brief objects at depth 0 and nested at depth 1', async () => {
    const tag = await create(t, '/api/extras/tags/', { name: 'gold', content_types: ['dcim.location'] });
    const berlin = (await t.call('GET', '/api/dcim/locations/?name=Berlin')).body.results[0];
    const patched = await t.call('PATCH', `/api/dcim/locations/${berlin.id}/`, { tags: ['gold'] });
    assert.deepEqual(patched.body.tags, [{ id: tag.id, object_type: 'extras.tag', url: tag.url }]);
    const d1 = (await t.call('GET', `/api/dcim/locations/${berlin.id}/?depth=1`)).body;
    assert.equal(d1.tags[0].name, 'gold');
    assert.equal((await t.call('GET', '/api/dcim/locations/?tag=gold&tags=gold')).body.count, 1);
    assert.equal((await t.call('GET', '/api/extras/tags/?name=gold')).body.results[0].tagged_items, 1);
  });
});

describe('deletes', () => {
  it('should refuse a protected delete with 409 and delete nothing in bulk', async () => {
    const res = await t.call('DELETE', `/api/dcim/location-types/${site.id}/`);
    assert.equal(res.status, 409);
    assert.match(res.body.detail, /^Unable to delete object\. 2 dependent objects were found: /);
    const bulk = await t.call('DELETE', '/api/dcim/location-types/', [{ id: site.id }, { id: region.id }]);
    assert.equal(bulk.status, 409);
    const [head, found] = bulk.body.detail.split(': ');
    assert.equal(head, 'Unable to delete object. 3 dependent objects were found');
    assert.deepEqual(found.split(', ').map((o: string) => o.replace(/ \([0-9a-f-]{36}\)$/, '')).sort(), ['EU', 'EU → Berlin', 'EU → Paris'], bulk.body.detail);
    assert.equal((await t.call('GET', '/api/dcim/location-types/')).body.count, 2);
  });

  it('should cascade to child locations and record delete changes', async () => {
    const eu = (await t.call('GET', '/api/dcim/locations/?name=EU')).body.results[0];
    assert.equal((await t.call('DELETE', `/api/dcim/locations/${eu.id}/`)).status, 204);
    assert.equal((await t.call('GET', '/api/dcim/locations/?name=Berlin')).body.count, 0);
    const changes = await t.call('GET', `/api/extras/object-changes/?action=delete&changed_object_type=dcim.location`);
    assert.equal(changes.body.count, 3);
  });
});

describe('change log and notes', () => {
  it('should record create and update with user, request id and snapshots', async () => {
    const tenant = await create(t, '/api/tenancy/tenants/', { name: 'acme' });
    await t.call('PATCH', `/api/tenancy/tenants/${tenant.id}/`, { description: 'changed' });
    const res = await t.call('GET', `/api/extras/object-changes/?changed_object_id=${tenant.id}`);
    assert.equal(res.body.count, 2);
    const [update, createChange] = res.body.results;
    assert.deepEqual(update.action, { value: 'update', label: 'Updated' });
    assert.deepEqual(createChange.action, { value: 'create', label: 'Created' });
    assert.equal(update.user_name, 'admin');
    assert.equal(update.object_data.description, 'changed');
    assert.equal(update.object_data_v2.description, 'changed');
    assert.equal(update.change_context_detail, 'tenancy-api:tenant-detail');
  });

  it('should leave counts out of a create snapshot, as the reference, and keep them in an update snapshot', async () => {
    const tenant = await create(t, '/api/tenancy/tenants/', { name: 'counted' });
    await t.call('PATCH', `/api/tenancy/tenants/${tenant.id}/`, { description: 'again' });
    const [update, createChange] = (await t.call('GET', `/api/extras/object-changes/?changed_object_id=${tenant.id}`)).body.results;
    assert.equal('circuit_count' in createChange.object_data_v2, false);
    assert.equal(createChange.object_data_v2.name, 'counted');
    assert.equal(update.object_data_v2.circuit_count, 0);
  });

  it('should snapshot each object of a bulk create with its shared related objects in full', async () => {
    const group = await create(t, '/api/tenancy/tenant-groups/', { name: 'shared-group' });
    const made = (await t.call('POST', '/api/tenancy/tenants/', [{ name: 'shared-1', tenant_group: group.id }, { name: 'shared-2', tenant_group: group.id }])).body;
    const records = (await t.call('GET', `/api/extras/object-changes/?request_id=${(await t.call('GET', `/api/extras/object-changes/?changed_object_id=${made[0].id}`)).body.results[0].request_id}`)).body.results;
    assert.equal(records.length, 2);
    for (const record of records) {
      assert.equal(record.object_data_v2.tenant_group.name, 'shared-group');
      assert.equal(record.object_data_v2.tenant_group.display, 'shared-group');
    }
  });

  it('should snapshot a bulk create as the depth-1 rendering, tree displays and shared tags included', async () => {
    const tag = await create(t, '/api/extras/tags/', { name: 'snap-tag', content_types: ['dcim.location'] });
    const top = await create(t, '/api/dcim/locations/', { name: 'Snap → Top', location_type: 'Region', status: 'Active' });
    const made = (await t.call('POST', '/api/dcim/locations/', ['α', 'β'].map((name) => ({ name, location_type: 'Site', status: 'Active', parent: top.id, tags: [tag.id] })))).body;
    for (const site of made) {
      const record = (await t.call('GET', `/api/extras/object-changes/?changed_object_id=${site.id}`)).body.results[0];
      const shown = (await t.call('GET', `/api/dcim/locations/${site.id}/?depth=1`)).body;
      // The reference's create snapshot has no count annotations; everything else is the depth-1 rendering.
      for (const key of Object.keys(shown).filter((k) => k.endsWith('_count'))) delete shown[key];
      assert.deepEqual(record.object_data_v2, shown);
      assert.equal(record.object_data_v2.display, `Snap → Top → ${site.name}`);
      assert.equal(record.object_repr, `Snap → Top → ${site.name}`);
      assert.equal(record.object_data_v2.parent.display, 'Snap → Top');
      assert.deepEqual(record.object_data.tags, ['snap-tag']);
    }
  });

  it('should keep each snapshot\'s related objects as they were when it was taken', async () => {
    const top = await create(t, '/api/dcim/locations/', { name: 'Then', location_type: 'Region', status: 'Active', description: 'old' });
    const [a1, a2] = (await t.call('POST', '/api/dcim/locations/', [{ name: 'a1', location_type: 'Site', status: 'Active', parent: top.id }, { name: 'a2', location_type: 'Site', status: 'Active', parent: top.id }])).body;
    assert.equal((await t.call('PATCH', `/api/dcim/locations/${top.id}/`, { description: 'new' })).status, 200);
    const b = await create(t, '/api/dcim/locations/', { name: 'b', location_type: 'Site', status: 'Active', parent: top.id });
    const snapshot = async (id: string) => (await t.call('GET', `/api/extras/object-changes/?changed_object_id=${id}`)).body.results[0].object_data_v2;
    assert.equal((await snapshot(a1.id)).parent.description, 'old');
    assert.equal((await snapshot(a2.id)).parent.description, 'old');
    assert.equal((await snapshot(b.id)).parent.description, 'new');
    const list = (await t.call('GET', `/api/extras/object-changes/?changed_object_id=${a1.id}&changed_object_id=${b.id}&changed_object_id=${top.id}`)).body.results;
    assert.deepEqual(list.map((r: any) => (r.changed_object_id === top.id ? r.object_data_v2 : r.object_data_v2.parent).description), ['new', 'new', 'old', 'old']);
  });

  it('should list and create notes of an object', async () => {
    const tenant = (await t.call('GET', '/api/tenancy/tenants/?name=acme')).body.results[0];
    const note = await t.call('POST', `/api/tenancy/tenants/${tenant.id}/notes/`, { note: 'first note' });
    assert.equal(note.status, 201, note.raw);
    assert.equal(note.body.assigned_object_type, 'tenancy.tenant');
    assert.equal(note.body.user_name, 'admin');
    const list = await t.call('GET', tenant.notes_url.replace('http://localhost:80', ''));
    assert.equal(list.body.count, 1);
    assert.equal(list.body.results[0].note, 'first note');
  });
});

describe('location type rules', () => {
  it('should refuse switching nestable off or changing the parent while locations use the type', async () => {
    const campus = await create(t, '/api/dcim/location-types/', { name: 'Campus', nestable: true, content_types: ['dcim.location'] });
    const outer = await create(t, '/api/dcim/locations/', { name: 'outer', location_type: campus.id, status: 'Active' });
    await create(t, '/api/dcim/locations/', { name: 'inner', location_type: campus.id, status: 'Active', parent: outer.id });
    const off = await t.call('PATCH', `/api/dcim/location-types/${campus.id}/`, { nestable: false });
    assertRefused(off, 400, { nestable: ['Disabling nestable is not permitted while locations of this type have parent locations of the same type.'] });
    const moved = await t.call('PATCH', `/api/dcim/location-types/${campus.id}/`, { parent: region.id });
    assertRefused(moved, 400, { parent: ['This LocationType currently has Locations using it, therefore its parent cannot be changed at this time.'] });
    assert.equal((await t.call('GET', `/api/dcim/location-types/${campus.id}/`)).body.nestable, true);
  });

  it('should refuse reserved names', async () => {
    const res = await t.call('POST', '/api/dcim/location-types/', { name: 'Rack Groups' });
    assertRefused(res, 400, { name: ['This name is reserved for rack groups.'] });
  });
});
