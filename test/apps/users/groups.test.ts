import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import { grant, makeUser } from '../../helpers/users.js';
import { assertRefused } from '../../helpers/refusals.js';
import type { TestApp } from '../../helpers/app.js';

// auth.group keeps Django's auto-increment integer key (wire capture auth.group.json): the id
// is a JSON number, read-only, and names the group in paths, filters and references.
let t: TestApp;
const ids: Record<string, number> = {};
before(async () => {
  t = await makeApp();
  for (const name of ['red', 'green', 'blue']) ids[name] = (await create(t, '/api/users/groups/', { name })).id;
});
after(() => t.close());

const idsOf = (refs: { id: unknown }[]) => refs.map((r) => r.id);

describe('POST /api/users/groups/', () => {
  it('should give consecutive integer ids, rendered as numbers in the body, URL and natural slug', async () => {
    assert.deepEqual([ids.red, ids.green, ids.blue], [1, 2, 3]);
    const res = await t.call('POST', '/api/users/groups/', [{ name: 'cyan' }, { name: 'magenta' }]);
    assert.equal(res.status, 201, res.raw);
    assert.deepEqual(idsOf(res.body), [4, 5]);
    assert.match(res.body[0].url, /\/api\/users\/groups\/4\/$/);
    assert.equal(res.body[0].natural_slug, 'cyan_4');
  });

  it('should ignore a client id (read-only) and not give a deleted id again', async () => {
    const made = await t.call('POST', '/api/users/groups/', { id: 77, name: 'temp' });
    assert.equal(made.status, 201, made.raw);
    assert.equal(made.body.id, 6);
    assert.equal((await t.call('DELETE', '/api/users/groups/6/')).status, 204);
    assert.equal((await create(t, '/api/users/groups/', { name: 'after-delete' })).id, 7);
  });

  it('should describe id as a read-only integer in OPTIONS', async () => {
    const res = await t.call('OPTIONS', '/api/users/groups/');
    assert.deepEqual(
      { type: res.body.actions.POST.id.type, read_only: res.body.actions.POST.id.read_only, required: res.body.actions.POST.id.required },
      { type: 'integer', read_only: true, required: false },
    );
  });
});

describe('GET /api/users/groups/', () => {
  it('should retrieve by integer id only (a plain Django model in the reference), and 404 a name, a UUID or an unknown id', async () => {
    assert.equal((await t.call('GET', `/api/users/groups/${ids.green}/`)).body.name, 'green');
    const byName = await t.call('GET', '/api/users/groups/blue/');
    assert.deepEqual([byName.status, byName.body], [404, { detail: 'Not found.' }]);
    assert.equal((await t.call('GET', '/api/users/groups/999/')).status, 404);
    assert.equal((await t.call('GET', '/api/users/groups/3f0c9a6e-1b7c-4c55-9d5e-0a1b2c3d4e5f/')).status, 404);
  });

  it('should filter by id with numeric lookups and refuse a non-number', async () => {
    const names = async (query: string) => (await t.call('GET', `/api/users/groups/?${query}`)).body.results.map((g: { name: string }) => g.name).sort();
    assert.deepEqual(await names(`id=${ids.red}&id=${ids.blue}`), ['blue', 'red']);
    assert.deepEqual(await names(`id__gte=${ids.green}&id__lt=4`), ['blue', 'green']);
    assert.deepEqual(await names(`id__n=${ids.red}&name__isw=b`), ['blue']);
    const bad = await t.call('GET', '/api/users/groups/?id=abc');
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body, { id: ['Enter a number.'] });
  });

  it('should export the integer id in CSV', async () => {
    const res = await t.call('GET', `/api/users/groups/?format=csv&id=${ids.green}`);
    assert.equal(res.status, 200);
    const [header, row] = res.raw.trim().split(/\r?\n/).map((line) => line.split(','));
    assert.equal(row[header.indexOf('id')], String(ids.green));
  });
});

describe('groups referenced by users and permissions', () => {
  it('should accept a number, digits, a URL or attributes and render number ids', async () => {
    const url = `http://localhost/api/users/groups/${ids.blue}/`;
    const user = await t.call('POST', '/api/users/users/', { username: 'gina', groups: [ids.red, String(ids.green), url] });
    assert.equal(user.status, 201, user.raw);
    assert.deepEqual(idsOf(user.body.groups).sort(), [ids.red, ids.green, ids.blue].sort());
    const perm = await t.call('POST', '/api/users/permissions/', { name: 'by-attrs', object_types: ['dcim.location'], actions: ['view'], groups: [{ name: 'green' }] });
    assert.equal(perm.status, 201, perm.raw);
    assert.deepEqual(perm.body.groups.map((g: { id: unknown; object_type: string }) => [g.id, g.object_type]), [[ids.green, 'auth.group']]);
    assert.match(perm.body.groups[0].url, new RegExp(`/api/users/groups/${ids.green}/$`));
    const deep = await t.call('GET', `/api/users/permissions/${perm.body.id}/?depth=1`);
    assert.equal(deep.body.groups[0].id, ids.green);
    assert.equal(deep.body.groups[0].name, 'green');
  });

  it('should name an unknown group id in the error as the reference quotes an integer pk', async () => {
    const res = await t.call('POST', '/api/users/users/', { username: 'nobody', groups: [999] });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { groups: ["Related object not found using the provided attributes: {'pk': 999}"] });
  });

  it('should count users per group and filter users by group id', async () => {
    await create(t, '/api/users/users/', { username: 'hank', groups: [ids.red] });
    assert.equal((await t.call('GET', `/api/users/groups/${ids.red}/`)).body.user_count, 2);
    // green is named by one user and by the permission 'by-attrs': only members count.
    assert.equal((await t.call('GET', `/api/users/groups/${ids.green}/`)).body.user_count, 1);
    const res = await t.call('GET', `/api/users/users/?groups=${ids.red}&groups_id=${ids.red}`);
    assert.equal(res.status, 200, res.raw);
    assert.deepEqual(res.body.results.map((u: { username: string }) => u.username).sort(), ['gina', 'hank']);
  });

  it('should bulk update and bulk delete by integer id and refuse a non-integer id', async () => {
    const made = await t.call('POST', '/api/users/groups/', [{ name: 'tmp-a' }, { name: 'tmp-b' }]);
    const pair = idsOf(made.body) as number[];
    const patched = await t.call('PATCH', '/api/users/groups/', [{ id: pair[0], name: 'tmp-a2' }, { id: String(pair[1]), name: 'tmp-b2' }]);
    assert.equal(patched.status, 200, patched.raw);
    assert.deepEqual(patched.body.map((g: { name: string }) => g.name), ['tmp-a2', 'tmp-b2']);
    const bad = await t.call('DELETE', '/api/users/groups/', [{ id: 'not-a-number' }]);
    assert.deepEqual([bad.status, bad.body], [400, [{ id: ['A valid integer is required.'] }]]);
    assert.equal((await t.call('DELETE', '/api/users/groups/', pair.map((id) => ({ id })))).status, 204);
    assert.equal((await t.call('GET', `/api/users/groups/${pair[0]}/`)).status, 404);
  });

  it('should drop a deleted group from users and permissions', async () => {
    const doomed = await create(t, '/api/users/groups/', { name: 'doomed' });
    const user = await create(t, '/api/users/users/', { username: 'ivy', groups: [doomed.id, ids.blue] });
    assert.equal((await t.call('DELETE', `/api/users/groups/${doomed.id}/`)).status, 204);
    assert.deepEqual(idsOf((await t.call('GET', `/api/users/users/${user.id}/`)).body.groups), [ids.blue]);
  });

  it('should apply permission constraints on group ids, a non-number matching nothing', async () => {
    const viewer = await makeUser(t, 'viewer', [{ object_types: ['users.user'], actions: ['view'], constraints: { groups__id: ids.red } }]);
    const seen = await viewer.call('GET', '/api/users/users/');
    assert.equal(seen.status, 200, seen.raw);
    assert.deepEqual(seen.body.results.map((u: { username: string }) => u.username).sort(), ['gina', 'hank']);
    const odd = await makeUser(t, 'odd', [{ object_types: ['users.user'], actions: ['view'], constraints: { groups__id: 'abc' } }]);
    const none = await odd.call('GET', '/api/users/users/');
    assert.deepEqual([none.status, none.body.count], [200, 0]);
  });

  it('should grant a group member what the group is granted', async () => {
    const member = await makeUser(t, 'member');
    assertRefused(await member.call('GET', '/api/dcim/locations/'), 403, { detail: 'You do not have permission to perform this action.' });
    const team = await create(t, '/api/users/groups/', { name: 'viewers' });
    await grant(t, { groups: [String(team.id)] }, [{ object_types: ['dcim.location'], actions: ['view'] }]);
    assert.equal((await t.call('PATCH', `/api/users/users/${member.id}/`, { groups: [team.id] })).status, 200);
    assert.equal((await member.call('GET', '/api/dcim/locations/')).status, 200);
  });
});
