import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import { grant, makeUser } from '../../helpers/users.js';
import { assertRefused } from '../../helpers/refusals.js';
import type { TestApp } from '../../helpers/app.js';
import type { Grant, TestUser } from '../../helpers/users.js';

let t: TestApp;
let site: any;
before(async () => {
  t = await makeApp();
  const tg = await create(t, '/api/tenancy/tenant-groups/', { name: 'Blue' });
  await create(t, '/api/extras/tags/', { name: 'gold', content_types: ['tenancy.tenant', 'dcim.location'] });
  await create(t, '/api/tenancy/tenants/', { name: 'acme', tenant_group: tg.id, tags: ['gold'], description: 'd1' });
  await create(t, '/api/tenancy/tenants/', { name: 'beta', description: 'd1' });
  await create(t, '/api/tenancy/tenants/', { name: 'Acorn', description: 'd2' });
  site = await create(t, '/api/dcim/location-types/', { name: 'Site' });
  await create(t, '/api/dcim/locations/', { name: 'l-acme', location_type: site.id, status: 'Active', tenant: 'acme' });
  await create(t, '/api/dcim/locations/', { name: 'l-beta', location_type: site.id, status: 'Active', tenant: 'beta' });
});
after(() => t.close());

let serial = 0;
/** The names a fresh user with these tenant grants sees. */
async function namesSeen(path: string, grants: Grant[]): Promise<string[]> {
  const user = await makeUser(t, `c${++serial}`, grants);
  const res = await user.call('GET', `${path}?limit=1000`);
  assert.equal(res.status, 200, res.raw);
  return res.body.results.map((r: { name: string }) => r.name).sort();
}
const tenants = (constraints: unknown) => namesSeen('/api/tenancy/tenants/', [{ object_types: ['tenancy.tenant'], actions: ['view'], constraints }]);

describe('constraint lookups (reference ORM syntax)', () => {
  it('should match exact, __in, __istartswith, __isnull and FK paths', async () => {
    assert.deepEqual(await tenants({ name: 'acme' }), ['acme']);
    assert.deepEqual(await tenants({ name__in: ['beta', 'Acorn', 'nope'] }), ['Acorn', 'beta']);
    assert.deepEqual(await tenants({ name__istartswith: 'AC' }), ['Acorn', 'acme']);
    assert.deepEqual(await tenants({ name__startswith: 'ac' }), ['acme']);
    assert.deepEqual(await tenants({ tenant_group__isnull: true }), ['Acorn', 'beta']);
    assert.deepEqual(await tenants({ tenant_group__name: 'Blue' }), ['acme']);
    assert.deepEqual(await tenants({ tags__name: 'gold' }), ['acme']);
  });

  it('should follow two-level paths such as tenant__tenant_group__name', async () => {
    const seen = await namesSeen('/api/dcim/locations/', [{ object_types: ['dcim.location'], actions: ['view'], constraints: { tenant__tenant_group__name: 'Blue', status__name: 'Active' } }]);
    assert.deepEqual(seen, ['l-acme']);
  });

  it('should AND within an object, OR across a list and across permissions', async () => {
    assert.deepEqual(await tenants({ description: 'd1', name: 'beta' }), ['beta']);
    assert.deepEqual(await tenants([{ description: 'd2' }, { name: 'acme' }]), ['Acorn', 'acme']);
    const two = await namesSeen('/api/tenancy/tenants/', [
      { object_types: ['tenancy.tenant'], actions: ['view'], constraints: { name: 'beta' } },
      { object_types: ['tenancy.tenant'], actions: ['view'], constraints: { name: 'Acorn' } },
    ]);
    assert.deepEqual(two, ['Acorn', 'beta']);
    const open = await namesSeen('/api/tenancy/tenants/', [
      { object_types: ['tenancy.tenant'], actions: ['view'], constraints: { name: 'beta' } },
      { object_types: ['tenancy.tenant'], actions: ['view'], constraints: null },
    ]);
    assert.deepEqual(open, ['Acorn', 'acme', 'beta'], 'an unconstrained grant opens everything');
  });

  it('should match nothing (never fail) for unknown fields and values of the wrong type', async () => {
    for (const c of [{ no_such_field: 'x' }, { name__bogus: 'x' }, { tenant_group: 'not-a-uuid' }, { id__in: ['bad'] }, { tags: 'gold' }, { name: { a: 1 } }, { name__in: 'acme' }, { id__startswith: 'x' }]) {
      assert.deepEqual(await tenants(c), [], JSON.stringify(c));
    }
    assert.deepEqual(await tenants({ tags__name__in: ['gold', 'none'], name__iendswith: 'ME' }), ['acme']);
  });

  it('should replace $user by the requesting user', async () => {
    const user = await makeUser(t, 'selfish', [{ object_types: ['users.user'], actions: ['view', 'change'], constraints: { id: '$user' } }]);
    const res = await user.call('GET', '/api/users/users/');
    assert.deepEqual(res.body.results.map((r: { username: string }) => r.username), ['selfish']);
    assert.equal((await user.call('PATCH', `/api/users/users/${user.id}/`, { first_name: 'Me' })).status, 200);
  });
});

describe('grants', () => {
  it('should come from groups, stop when disabled or revoked, and apply on the next request', async () => {
    const user = await makeUser(t, 'member');
    const group = await create(t, '/api/users/groups/', { name: 'readers' });
    const [perm] = await grant(t, { groups: [group.id] }, [{ object_types: ['tenancy.tenant'], actions: ['view'], constraints: { name: 'acme' } }]);
    assertRefused(await user.call('GET', '/api/tenancy/tenants/'), 403, { detail: 'You do not have permission to perform this action.' });
    await t.call('PATCH', `/api/users/users/${user.id}/`, { groups: [group.id] });
    assert.equal((await user.call('GET', '/api/tenancy/tenants/')).body.count, 1);
    await t.call('PATCH', `/api/users/permissions/${perm.id}/`, { enabled: false });
    assertRefused(await user.call('GET', '/api/tenancy/tenants/'), 403, { detail: 'You do not have permission to perform this action.' }, 'disabled grants nothing');
    await t.call('PATCH', `/api/users/permissions/${perm.id}/`, { enabled: true });
    await t.call('PATCH', `/api/users/users/${user.id}/`, { groups: [] });
    assertRefused(await user.call('GET', '/api/tenancy/tenants/'), 403, { detail: 'You do not have permission to perform this action.' }, 'left the group');
  });

  it('should let superusers bypass every check', async () => {
    assert.equal((await t.call('GET', '/api/tenancy/tenants/')).body.count, 3);
  });

  it('should name the missing action: 403 before 405 on a detail POST', async () => {
    const viewer = await makeUser(t, 'viewer', [{ object_types: ['tenancy.tenant'], actions: ['view'] }]);
    const adder = await makeUser(t, 'adder', [{ object_types: ['tenancy.tenant'], actions: ['view', 'add'] }]);
    const acme = (await t.call('GET', '/api/tenancy/tenants/?name=acme')).body.results[0];
    assertRefused(await viewer.call('POST', `/api/tenancy/tenants/${acme.id}/`, {}), 403, { detail: 'You do not have permission to perform this action.' });
    assertRefused(await adder.call('POST', `/api/tenancy/tenants/${acme.id}/`, {}), 405, { detail: 'Method "POST" not allowed.' });
  });
});

describe('OPTIONS and related objects', () => {
  it('should show POST/PUT (and choices) only for the add/change grants held', async () => {
    const viewer = await makeUser(t, 'o-view', [{ object_types: ['ipam.prefix'], actions: ['view'] }]);
    const adder = await makeUser(t, 'o-add', [{ object_types: ['ipam.prefix'], actions: ['add'] }]);
    const changer = await makeUser(t, 'o-change', [{ object_types: ['ipam.prefix'], actions: ['change'] }]);
    assert.equal((await viewer.call('OPTIONS', '/api/ipam/prefixes/')).body.actions, undefined);
    const add = (await adder.call('OPTIONS', '/api/ipam/prefixes/')).body.actions;
    assert.deepEqual(Object.keys(add), ['POST']);
    assert.ok(add.POST.type.choices.length > 0);
    assert.deepEqual(Object.keys((await changer.call('OPTIONS', '/api/ipam/prefixes/')).body.actions), ['PUT']);
    assert.equal((await adder.call('OPTIONS', '/api/ipam/prefixes/00000000-0000-4000-8000-000000000000/')).body.actions, undefined);
  });

  it('should refuse (400) a related object the user may not view', async () => {
    const user = await makeUser(t, 'placer', [
      { object_types: ['dcim.location'], actions: ['view', 'add'] },
      { object_types: ['dcim.locationtype'], actions: ['view'] },
      { object_types: ['extras.status'], actions: ['view'], constraints: { name: 'Planned' } },
    ]);
    const res = await user.call('POST', '/api/dcim/locations/', { name: 'new', location_type: site.id, status: 'Active' });
    assertRefused(res, 400, { status: ["Related object not found using the provided attributes: {'name': 'Active'}"] }, res.raw);
    const tenant = await user.call('POST', '/api/dcim/locations/', { name: 'new', location_type: site.id, status: 'Planned', tenant: 'acme' });
    assertRefused(tenant, 400, { tenant: ["Related object not found using the provided attributes: {'name': 'acme'}"] }, 'no tenant view grant at all');
    assert.equal((await user.call('POST', '/api/dcim/locations/', { name: 'new', location_type: site.id, status: 'Planned' })).status, 201);
  });
});
