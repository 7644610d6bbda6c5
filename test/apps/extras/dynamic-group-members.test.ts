import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import { assertRefused } from '../../helpers/refusals.js';
import { makeUser } from '../../helpers/users.js';
import type { TestApp } from '../../helpers/app.js';

let t: TestApp;
const d: Record<string, any> = {};
const g: Record<string, any> = {};

const GROUPS = '/api/extras/dynamic-groups/';
const names = (res: { body: any }) => res.body.results.map((o: any) => o.name).sort();

async function group(name: string, body: Record<string, unknown>) {
  return create(t, GROUPS, { name, content_type: 'dcim.device', ...body });
}

async function child(parent: any, member: any, operator: string, weight: number) {
  return create(t, '/api/extras/dynamic-group-memberships/', { parent_group: parent.id, group: member.id, operator, weight });
}

before(async () => {
  t = await makeApp();
  await create(t, '/api/dcim/location-types/', { name: 'Site', content_types: ['dcim.device'] });
  const a = await create(t, '/api/dcim/locations/', { name: 'site-a', location_type: 'Site', status: 'Active' });
  const b = await create(t, '/api/dcim/locations/', { name: 'site-b', location_type: 'Site', status: 'Active' });
  await create(t, '/api/dcim/manufacturers/', { name: 'acme' });
  const type = await create(t, '/api/dcim/device-types/', { manufacturer: { name: 'acme' }, model: 'box' });
  const role = await create(t, '/api/extras/roles/', { name: 'gear', content_types: ['dcim.device'] });
  const device = { device_type: type.id, role: role.id, status: 'Active' };
  d.a1 = await create(t, '/api/dcim/devices/', { ...device, name: 'a1', location: a.id });
  d.a2 = await create(t, '/api/dcim/devices/', { ...device, name: 'a2', location: a.id });
  d.b1 = await create(t, '/api/dcim/devices/', { ...device, name: 'b1', location: b.id });
  g.siteA = await group('site-a devices', { filter: { location: ['site-a'] } });
  g.ones = await group('ones', { filter: { name__ic: ['1'] } });
  g.all = await group('everything', { filter: {} });
  g.pinned = await group('pinned', { group_type: 'static' });
  await create(t, '/api/extras/static-group-associations/', { dynamic_group: g.pinned.id, associated_object_type: 'dcim.device', associated_object_id: d.b1.id });
  g.union = await group('a or ones', { group_type: 'dynamic-set' });
  await child(g.union, g.siteA, 'union', 10);
  await child(g.union, g.ones, 'union', 20);
  g.both = await group('a and ones', { group_type: 'dynamic-set' });
  await child(g.both, g.siteA, 'union', 10);
  await child(g.both, g.ones, 'intersection', 20);
  g.minus = await group('a but not ones', { group_type: 'dynamic-set' });
  await child(g.minus, g.siteA, 'union', 10);
  await child(g.minus, g.ones, 'difference', 20);
  g.nested = await group('nested', { group_type: 'dynamic-set' });
  await child(g.nested, g.all, 'union', 10);
  await child(g.nested, g.minus, 'difference', 20);
  g.tenants = await create(t, GROUPS, { name: 'tenants', content_type: 'tenancy.tenant', filter: {} });
});
after(() => t.close());

describe('GET /api/extras/dynamic-groups/{id}/members/', () => {
  it('should list the members of a dynamic-filter group through its filter', async () => {
    const res = await t.call('GET', `${GROUPS}${g.siteA.id}/members/`, undefined, { headers: { accept: 'application/json;' } });
    assert.equal(res.status, 200);
    assert.deepEqual(names(res), ['a1', 'a2']);
    assert.deepEqual(Object.keys(res.body), ['count', 'next', 'previous', 'results']);
    assert.equal(res.body.results[0].object_type, 'dcim.device');
    assert.equal(res.headers.allow, 'GET, HEAD, OPTIONS');
  });

  it('should list every object for an empty filter, and the associations of a static group', async () => {
    assert.deepEqual(names(await t.call('GET', `${GROUPS}${g.all.id}/members/`)), ['a1', 'a2', 'b1']);
    assert.deepEqual(names(await t.call('GET', `${GROUPS}${g.pinned.id}/members/`)), ['b1']);
  });

  it('should combine children by weight with union, intersection and difference, nested too', async () => {
    assert.deepEqual(names(await t.call('GET', `${GROUPS}${g.union.id}/members/`)), ['a1', 'a2', 'b1']);
    assert.deepEqual(names(await t.call('GET', `${GROUPS}${g.both.id}/members/`)), ['a1']);
    assert.deepEqual(names(await t.call('GET', `${GROUPS}${g.minus.id}/members/`)), ['a2']);
    assert.deepEqual(names(await t.call('GET', `${GROUPS}${g.nested.id}/members/`)), ['a1', 'b1']);
  });

  it('should page as any list, and follow pynautobot paging (limit=count&offset=n)', async () => {
    const first = await t.call('GET', `${GROUPS}${g.all.id}/members/?limit=1&depth=1`);
    assert.equal(first.body.count, 3);
    assert.equal(first.body.results.length, 1);
    assert.equal(first.body.next, `http://localhost:80/api/extras/dynamic-groups/${g.all.id}/members/?depth=1&limit=1&offset=1`);
    assert.equal(typeof first.body.results[0].location.name, 'string');
    const rest = await t.call('GET', `${GROUPS}${g.all.id}/members/?limit=3&offset=1`);
    assert.deepEqual([rest.body.results.length, rest.body.previous], [2, `http://localhost:80/api/extras/dynamic-groups/${g.all.id}/members/?limit=3`]);
  });

  it('should follow the objects as they change (computed at query time)', async () => {
    const moved = await t.call('PATCH', `/api/dcim/devices/${d.a2.id}/`, { location: { name: 'site-b' } });
    assert.equal(moved.status, 200);
    try {
      assert.deepEqual(names(await t.call('GET', `${GROUPS}${g.siteA.id}/members/`)), ['a1']);
    } finally {
      await t.call('PATCH', `/api/dcim/devices/${d.a2.id}/`, { location: { name: 'site-a' } });
    }
  });

  it('should answer 404 for an unknown group, 405 for writes, and no members without the view permission', async () => {
    assert.equal((await t.call('GET', `${GROUPS}00000000-0000-0000-0000-000000000000/members/`)).status, 404);
    assert.equal((await t.call('POST', `${GROUPS}${g.all.id}/members/`, {})).status, 405);
    const user = await makeUser(t, 'group-reader', [{ object_types: ['extras.dynamicgroup'], actions: ['view'] }]);
    const res = await user.call('GET', `${GROUPS}${g.all.id}/members/`);
    assert.deepEqual([res.status, res.body.count, res.body.results], [200, 0, []]);
  });
});

describe('?dynamic_groups= filter', () => {
  it('should filter devices by group id or name, any of several, and exclude with __n', async () => {
    const byName = await t.call('GET', `/api/dcim/devices/?dynamic_groups=${encodeURIComponent('site-a devices')}`);
    assert.deepEqual(names(byName), ['a1', 'a2']);
    assert.deepEqual(names(await t.call('GET', `/api/dcim/devices/?dynamic_groups=${g.pinned.id}&dynamic_groups=${g.both.id}`)), ['a1', 'b1']);
    assert.deepEqual(names(await t.call('GET', `/api/dcim/devices/?dynamic_groups__n=${g.siteA.id}`)), ['b1']);
  });

  it('should refuse an unknown group and a group of another content type', async () => {
    assertRefused(await t.call('GET', '/api/dcim/devices/?dynamic_groups=nope'), 400, { dynamic_groups: ['Select a valid choice. nope is not one of the available choices.'] });
    assertRefused(await t.call('GET', `/api/dcim/devices/?dynamic_groups=${g.tenants.id}`), 400, { dynamic_groups: [`Select a valid choice. ${g.tenants.id} is not one of the available choices.`] });
  });

  it('should be offered only on models with the dynamic groups feature', async () => {
    assert.equal((await t.call('GET', `/api/tenancy/tenants/?dynamic_groups=${g.tenants.id}`)).status, 200);
    assertRefused(await t.call('GET', '/api/extras/dynamic-groups/?dynamic_groups=x'), 400, { dynamic_groups: ['Unknown filter field'] });
  });
});

describe('dynamic group and membership rules', () => {
  it('should refuse a filter its model cannot take, keyed by the filter name', async () => {
    assertRefused(await t.call('POST', GROUPS, { name: 'bad', content_type: 'dcim.device', filter: { location: ['nowhere'] } }), 400, { location: ['Select a valid choice. nowhere is not one of the available choices.'] });
    assertRefused(await t.call('POST', GROUPS, { name: 'bad', content_type: 'dcim.device', filter: { no_such_filter: ['x'] } }), 400, { no_such_filter: ['Unknown filter field'] });
    assertRefused(await t.call('POST', GROUPS, { name: 'bad', content_type: 'dcim.device', group_type: 'static', filter: { name: ['a1'] } }), 400, { filter: ['Filter can only be set for groups of type `dynamic-filter`.'] });
  });

  it('should keep the content type once created', async () => {
    assertRefused(await t.call('PATCH', `${GROUPS}${g.ones.id}/`, { content_type: 'tenancy.tenant' }), 400, { content_type: ['ContentType cannot be changed once created'] });
  });

  it('should refuse static children, mixed content types, self and ancestor loops', async () => {
    const post = (body: Record<string, unknown>) => t.call('POST', '/api/extras/dynamic-group-memberships/', { operator: 'union', weight: 99, ...body });
    assertRefused(await post({ parent_group: g.union.id, group: g.pinned.id }), 400, { group: ['Groups of `group_type` `"static"` may not be child groups at this time.'] });
    assertRefused(await post({ parent_group: g.union.id, group: g.tenants.id }), 400, { group: ['ContentType for group and parent_group must match'] });
    assertRefused(await post({ parent_group: g.union.id, group: g.union.id }), 400, { group: ['Cannot add group as a child of itself'] });
    assertRefused(await post({ parent_group: g.minus.id, group: g.nested.id }), 400, { group: ['Cannot add ancestor as a child'] });
    assertRefused(await post({ parent_group: g.siteA.id, group: g.ones.id }), 400, { parent_group: ['A parent group must be of `group_type` `"dynamic-set"`.'] });
  });

  it('should turn a filterless dynamic-filter parent into a dynamic-set when it gains a child', async () => {
    const parent = await group('filterless', {});
    await child(parent, g.ones, 'union', 10);
    assert.equal((await t.call('GET', `${GROUPS}${parent.id}/`)).body.group_type, 'dynamic-set');
    assert.deepEqual(names(await t.call('GET', `${GROUPS}${parent.id}/members/`)), ['a1', 'b1']);
  });
});

describe('deleting groups in a tree', () => {
  it("should refuse to delete another group's child with a 409 naming the parents, and delete a parent with its memberships", async () => {
    const parent = await group('tree parent', { group_type: 'dynamic-set' });
    const leaf = await group('tree leaf', { filter: { name: ['a1'] } });
    const membership = await child(parent, leaf, 'union', 10);
    const refused = await t.call('DELETE', `${GROUPS}${leaf.id}/`);
    assert.equal(refused.status, 409);
    assert.deepEqual(refused.body, { detail: `Unable to delete object. 1 dependent objects were found: tree parent (${parent.id})` });
    assert.equal((await t.call('GET', `${GROUPS}${leaf.id}/`)).status, 200);
    assert.equal((await t.call('DELETE', GROUPS, [{ id: parent.id }, { id: leaf.id }])).status, 204);
    assert.equal((await t.call('GET', `/api/extras/dynamic-group-memberships/${membership.id}/`)).status, 404);
  });
});

describe('GraphQL dynamic_groups argument', () => {
  it('should narrow a list to a group, as the REST filter', async () => {
    const res = await t.call('POST', '/api/graphql/', { query: `{ devices(dynamic_groups: ["${g.both.id}"]) { name } }` });
    assert.deepEqual(res.body, { data: { devices: [{ name: 'a1' }] } });
  });
});
