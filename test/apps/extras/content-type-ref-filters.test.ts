import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';

// Filters that name content types take the content type's id too, as the reference's do, and
// those ids are the ones /api/extras/content-types/ lists.
let t: TestApp;
const ct: Record<string, number> = {};
let tenant: any;
let group: any;

before(async () => {
  t = await makeApp();
  for (const r of (await t.call('GET', '/api/extras/content-types/?app_label=tenancy')).body.results) ct[`${r.app_label}.${r.model}`] = r.id;
  group = await create(t, '/api/tenancy/tenant-groups/', { name: 'grp' });
  tenant = await create(t, '/api/tenancy/tenants/', { name: 'ten' });
  await create(t, `/api/tenancy/tenants/${tenant.id}/notes/`, { note: 'on a tenant' });
  await create(t, `/api/tenancy/tenant-groups/${group.id}/notes/`, { note: 'on a group' });
});
after(() => t.close());

async function notes(query: string): Promise<string[]> {
  const res = await t.call('GET', `/api/extras/notes/?${query}`);
  assert.equal(res.status, 200, `${query}: ${res.raw}`);
  return res.body.results.map((n: { note: string }) => n.note).sort();
}

describe('content type filters by label or id (the reference ContentTypeFilter)', () => {
  it('should match app_label.model in any case, or the content type id', async () => {
    assert.deepEqual(await notes('assigned_object_type=tenancy.tenant'), ['on a tenant']);
    assert.deepEqual(await notes('assigned_object_type=TENANCY.Tenant'), ['on a tenant']);
    assert.deepEqual(await notes(`assigned_object_type=${ct['tenancy.tenantgroup']}`), ['on a group']);
    assert.deepEqual(await notes(`assigned_object_type__n=${ct['tenancy.tenantgroup']}`), ['on a tenant']);
    assert.deepEqual(await notes('assigned_object_type__n=tenancy.tenant'), ['on a group']);
  });

  it('should match nothing for a value of neither form, and take the last value', async () => {
    assert.deepEqual(await notes('assigned_object_type=tenant'), []);
    assert.deepEqual(await notes('assigned_object_type__n=a.b.c'), []);
    assert.deepEqual(await notes('assigned_object_type=99999'), []);
    assert.deepEqual(await notes('assigned_object_type__n=99999'), ['on a group', 'on a tenant']);
    assert.deepEqual(await notes('assigned_object_type=tenancy.tenant&assigned_object_type=tenancy.tenantgroup'), ['on a group']);
    assert.deepEqual(await notes('assigned_object_type='), ['on a group', 'on a tenant']);
  });

  it('should name object changes by content type id too', async () => {
    const res = await t.call('GET', `/api/extras/object-changes/?changed_object_type=${ct['tenancy.tenantgroup']}`);
    assert.deepEqual(res.body.results.map((r: { changed_object_id: string }) => r.changed_object_id), [group.id]);
  });
});

describe('<field>_id filters of content type FKs (the reference Meta.fields)', () => {
  it('should filter by one content type id, the last given, with __n', async () => {
    assert.deepEqual(await notes(`assigned_object_type_id=${ct['tenancy.tenant']}`), ['on a tenant']);
    assert.deepEqual(await notes(`assigned_object_type_id=${ct['tenancy.tenant']}&assigned_object_type_id=${ct['tenancy.tenantgroup']}`), ['on a group']);
    assert.deepEqual(await notes(`assigned_object_type_id__n=${ct['tenancy.tenant']}`), ['on a group']);
    assert.deepEqual(await notes('assigned_object_type_id='), ['on a group', 'on a tenant']);
    const changes = await t.call('GET', `/api/extras/object-changes/?changed_object_type_id=${ct['tenancy.tenant']}`);
    assert.deepEqual(changes.body.results.map((r: { changed_object_id: string }) => r.changed_object_id), [tenant.id]);
    assert.equal((await t.call('GET', `/api/extras/image-attachments/?content_type_id=${ct['tenancy.tenant']}`)).status, 200);
  });

  it('should refuse an id naming no content type, or no number', async () => {
    for (const value of ['99999', 'tenancy.tenant', 'x']) {
      const res = await t.call('GET', `/api/extras/notes/?assigned_object_type_id=${value}`);
      assert.equal(res.status, 400, value);
      assert.deepEqual(res.body, { assigned_object_type_id: ['Select a valid choice. That choice is not one of the available choices.'] });
    }
  });
});
