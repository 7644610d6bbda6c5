import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TOKEN, create, makeApp } from '../../helpers/app.js';
import { basicAuth, makeUser } from '../../helpers/users.js';
import { assertRefused, countOf } from '../../helpers/refusals.js';
import type { TestApp } from '../../helpers/app.js';
import type { TestUser } from '../../helpers/users.js';

let t: TestApp;
let alice: TestUser;
let bob: TestUser;
before(async () => {
  t = await makeApp();
  alice = await makeUser(t, 'alice');
  bob = await makeUser(t, 'bob');
});
after(() => t.close());

const storedPassword = async (username: string) =>
  (await t.app.services.dialect.db.selectFrom('users_user').select('password').where('username', '=', username).executeTakeFirst())?.password as string;
const canLogIn = async (username: string, password: string) =>
  (await t.call('POST', '/api/users/tokens/', {}, { token: null, headers: basicAuth(username, password) })).status === 201;

describe('/api/users/users/ passwords', () => {
  it('should store a scrypt hash and never return the password', async () => {
    const res = await t.call('POST', '/api/users/users/', { username: 'carol', password: 'carol-pw-1' });
    assert.equal(res.status, 201, res.raw);
    assert.equal('password' in res.body, false);
    assert.match(await storedPassword('carol'), /^scrypt\$\d+\$[0-9a-f]{32}\$[0-9a-f]{64}$/);
    for (const url of [`/api/users/users/${res.body.id}/`, `/api/users/users/${res.body.id}/?depth=1`, '/api/users/users/', '/api/users/users/?format=csv']) {
      const raw = (await t.call('GET', url)).raw;
      assert.ok(!raw.includes('scrypt$') && !raw.includes('"password"'), url);
    }
  });

  it('should keep the password on PATCH without one and make it unusable on PUT without one', async () => {
    assert.ok(await canLogIn('alice', alice.password));
    assert.equal((await t.call('PATCH', `/api/users/users/${alice.id}/`, { first_name: 'Alice' })).status, 200);
    assert.ok(await canLogIn('alice', alice.password), 'PATCH kept it');
    assert.equal((await t.call('PUT', `/api/users/users/${alice.id}/`, { username: 'alice', first_name: 'Alice' })).status, 200);
    assert.equal(await storedPassword('alice'), '!');
    const res = await t.call('POST', '/api/users/tokens/', {}, { token: null, headers: basicAuth('alice', alice.password) });
    assertRefused(res, 403, { detail: 'Invalid username/password.' });
    assert.equal((await t.call('PATCH', `/api/users/users/${alice.id}/`, { password: 'fresh-pw-2' })).status, 200);
    assert.ok(await canLogIn('alice', 'fresh-pw-2'));
    assert.equal(await canLogIn('alice', alice.password), false);
  });

  it('should give an account created without a password an unusable one', async () => {
    await create(t, '/api/users/users/', { username: 'nopw' });
    assert.equal(await storedPassword('nopw'), '!');
  });

  it('should refuse usernames with other characters than letters, digits and @.+-_', async () => {
    const res = await t.call('POST', '/api/users/users/', { username: 'with space' });
    assertRefused(res, 400, { username: ['Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters.'] });
    assert.equal((await t.call('POST', '/api/users/users/', { username: 'ok.user+x@ex-1_a' })).status, 201);
  });
});

describe('/api/users/groups/', () => {
  it('should create groups and count their users', async () => {
    const group = await create(t, '/api/users/groups/', { name: 'ops' });
    assert.equal((await t.call('GET', `/api/users/groups/${group.id}/`)).body.user_count, 0);
    await t.call('PATCH', `/api/users/users/${bob.id}/`, { groups: [group.id] });
    assert.equal((await t.call('GET', `/api/users/groups/${group.id}/`)).body.user_count, 1);
    const user = (await t.call('GET', `/api/users/users/${bob.id}/`)).body;
    assert.deepEqual(user.groups.map((g: { id: string }) => g.id), [group.id]);
  });
});

describe('users and permissions filters', () => {
  it('should filter users by groups_id, object permissions, object changes and rack reservations', async () => {
    const group = await create(t, '/api/users/groups/', { name: 'filtered' });
    const ivan = await create(t, '/api/users/users/', { username: 'ivan', groups: [group.id] });
    const perm = await create(t, '/api/users/permissions/', { name: 'ivan-perm', object_types: ['dcim.rack'], actions: ['view'], users: [ivan.id], groups: [group.id] });
    const names = async (query: string) => {
      const res = await t.call('GET', `/api/users/users/?limit=1000&${query}`);
      assert.equal(res.status, 200, res.raw);
      return res.body.results.map((r: { username: string }) => r.username).sort();
    };
    assert.deepEqual(await names(`groups_id=${group.id}`), ['ivan']);
    assert.deepEqual(await names(`object_permissions=${perm.id}`), ['ivan']);
    assert.ok((await names('has_object_permissions=true')).includes('ivan'));
    assert.ok(!(await names('has_object_permissions=false')).includes('ivan'));
    assert.deepEqual(await names('has_object_changes=true'), ['admin']);
    assert.ok((await names('has_rack_reservations=false')).includes('admin'));
    assertRefused(await t.call('GET', '/api/users/users/?has_object_changes=maybe'), 400, { has_object_changes: ['Select a valid choice. maybe is not one of the available choices.'] });
    const perms = await t.call('GET', `/api/users/permissions/?groups_id=${group.id}`);
    assert.deepEqual(perms.body.results.map((r: { name: string }) => r.name), ['ivan-perm']);
  });
});

describe('/api/users/tokens/', () => {
  it('should generate a 40-hex key, show it, and own it by the caller whatever the body says', async () => {
    const res = await alice.call('POST', '/api/users/tokens/', { description: 'mine', user: bob.id });
    assert.equal(res.status, 201, res.raw);
    assert.match(res.body.key, /^[0-9a-f]{40}$/);
    assert.equal(res.body.display, `${res.body.key.slice(-6)} (alice)`);
    assert.equal((await alice.call('GET', `/api/users/tokens/${res.body.id}/`)).body.key, res.body.key);
    const supplied = await alice.call('POST', '/api/users/tokens/', { key: 'ab'.repeat(20) });
    assert.equal(supplied.body.key, 'ab'.repeat(20));
    assertRefused(await bob.call('POST', '/api/users/tokens/', { key: 'ab'.repeat(20) }), 400, { key: ['Token with this key already exists.'] });
    assertRefused(await alice.call('POST', '/api/users/tokens/', { key: 'short' }), 400, { key: ['Ensure this field has at least 40 characters.'] });
  });

  it('should list only the caller\'s tokens, superusers included', async () => {
    const mine = await alice.call('GET', '/api/users/tokens/');
    assert.ok(mine.body.count >= 1);
    assert.ok(mine.body.results.every((r: { display: string }) => r.display.endsWith('(alice)')));
    const admin = await t.call('GET', '/api/users/tokens/?limit=1000');
    assert.deepEqual(admin.body.results.map((r: { key: string }) => r.key), [TOKEN]);
  });

  it('should hide another user\'s token from detail, update and delete', async () => {
    const theirs = (await bob.call('GET', '/api/users/tokens/')).body.results[0];
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const res = await alice.call(method, `/api/users/tokens/${theirs.id}/`, method === 'PATCH' ? { description: 'x' } : undefined);
      assert.equal(res.status, 404, method);
      assert.deepEqual(res.body, { detail: 'No Token matches the given query.' });
    }
    assert.equal((await alice.call('DELETE', '/api/users/tokens/', [{ id: theirs.id }])).status, 204);
    assert.deepEqual((await alice.call('PATCH', '/api/users/tokens/', [{ id: theirs.id, write_enabled: false }])).body, []);
    const still = await bob.call('GET', `/api/users/tokens/${theirs.id}/`);
    assert.equal(still.status, 200);
    assert.equal(still.body.write_enabled, true);
  });
});

describe('/api/users/permissions/', () => {
  it('should refuse actions that are not a list of names and malformed constraints', async () => {
    const base = { name: 'bad', object_types: ['dcim.location'] };
    const before = await countOf(t, '/api/users/permissions/');
    assertRefused(await t.call('POST', '/api/users/permissions/', { ...base, actions: 'view' }), 400, { actions: ['Enter a list of action names (each at most 30 characters), e.g. ["view", "change"].'] });
    assertRefused(await t.call('POST', '/api/users/permissions/', { ...base, actions: ['view'], constraints: 'name=x' }), 400, { constraints: ['Constraints must be null, an object of lookups, or a list of such objects.'] });
    assertRefused(await t.call('POST', '/api/users/permissions/', { ...base, actions: ['view'], constraints: [{ name: 'x' }, 3] }), 400, { constraints: ['Constraints must be null, an object of lookups, or a list of such objects.'] });
    assert.equal(await countOf(t, '/api/users/permissions/'), before, 'no refused permission is written');
    const ok = await t.call('POST', '/api/users/permissions/', { ...base, actions: ['view'], constraints: [{ name: 'x' }, { name__in: ['y'] }] });
    assert.equal(ok.status, 201, ok.raw);
  });

  it('should record who changed a permission', async () => {
    const res = await t.call('GET', '/api/extras/object-changes/?changed_object_type=users.objectpermission&limit=1');
    assert.equal(res.body.results[0].user_name, 'admin');
  });
});

describe('/api/users/config/', () => {
  it('should return the caller\'s config and deep-merge a PATCH into it', async () => {
    assert.deepEqual((await alice.call('GET', '/api/users/config/')).body, {});
    const first = await alice.call('PATCH', '/api/users/config/', { tables: { locations: { columns: ['name'] } }, theme: 'dark' });
    assert.equal(first.status, 200, first.raw);
    const second = await alice.call('PATCH', '/api/users/config/', { tables: { devices: { per_page: 25 } }, theme: 'light' });
    assert.deepEqual(second.body, { tables: { locations: { columns: ['name'] }, devices: { per_page: 25 } }, theme: 'light' });
    assert.deepEqual((await alice.call('GET', '/api/users/config/')).body, second.body);
    assert.deepEqual((await bob.call('GET', '/api/users/config/')).body, {}, 'each user has their own');
    assert.deepEqual((await t.call('GET', `/api/users/users/${alice.id}/`)).body.config_data, second.body);
  });

  it('should answer OPTIONS, refuse other methods and non-object bodies, and need a user', async () => {
    const options = await alice.call('OPTIONS', '/api/users/config/');
    assert.equal(options.body.name, 'User Config List');
    assert.deepEqual(options.body.parses, ['application/json', 'text/csv']);
    const post = await alice.call('POST', '/api/users/config/', {});
    assertRefused(post, 405, { detail: 'Method "POST" not allowed.' });
    assert.equal(post.headers.allow, 'GET, PATCH, HEAD, OPTIONS');
    assertRefused(await alice.call('PATCH', '/api/users/config/', [1]), 400, { non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] });
    const anonymous = await t.call('GET', '/api/users/config/', undefined, { token: null });
    assertRefused(anonymous, 403, { detail: 'Authentication credentials were not provided.' });
  });
});
