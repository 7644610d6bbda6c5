import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import { basicAuth, makeUser } from '../../helpers/users.js';
import { assertRefused } from '../../helpers/refusals.js';
import type { TestApp } from '../../helpers/app.js';
import type { TestUser } from '../../helpers/users.js';

const NOT_PROVIDED = { detail: 'Authentication credentials were not provided.' };
const DENIED = { detail: 'You do not have permission to perform this action.' };

let t: TestApp;
let dave: TestUser;
before(async () => {
  t = await makeApp();
  dave = await makeUser(t, 'dave', [{ object_types: ['tenancy.tenant'], actions: ['view', 'add', 'change', 'delete'] }]);
});
after(() => t.close());

const get = (headers: Record<string, string>) => t.call('GET', '/api/tenancy/tenants/', undefined, { token: null, headers });

describe('token authentication edge cases', () => {
  it('should refuse an expired token and accept one expiring later', async () => {
    const old = await dave.call('POST', '/api/users/tokens/', { expires: '2001-01-01T00:00:00Z' });
    assertRefused(await t.call('GET', '/api/tenancy/tenants/', undefined, { token: old.body.key }), 403, { detail: 'Token expired' });
    const later = await dave.call('POST', '/api/users/tokens/', { expires: '2999-01-01T00:00:00Z' });
    assert.equal((await t.call('GET', '/api/tenancy/tenants/', undefined, { token: later.body.key })).status, 200);
  });

  it('should let a read-only token read but not write, and show it no OPTIONS actions', async () => {
    const ro = (await dave.call('POST', '/api/users/tokens/', { write_enabled: false })).body.key;
    const tenant = await create(t, '/api/tenancy/tenants/', { name: 'ro-target' });
    assert.equal((await t.call('GET', '/api/tenancy/tenants/', undefined, { token: ro })).status, 200);
    for (const [method, url, body] of [['POST', '/api/tenancy/tenants/', { name: 'x' }], ['PATCH', `/api/tenancy/tenants/${tenant.id}/`, { description: 'x' }], ['DELETE', `/api/tenancy/tenants/${tenant.id}/`, undefined]] as const) {
      const res = await t.call(method, url, body, { token: ro });
      assert.equal(res.status, 403, method);
      assert.deepEqual(res.body, DENIED);
    }
    const options = await t.call('OPTIONS', '/api/tenancy/tenants/', undefined, { token: ro });
    assert.equal(options.body.actions, undefined);
    assert.deepEqual(Object.keys((await dave.call('OPTIONS', '/api/tenancy/tenants/')).body.actions), ['POST', 'PUT']);
  });

  it('should refuse the tokens of an inactive user', async () => {
    const erin = await makeUser(t, 'erin');
    await t.call('PATCH', `/api/users/users/${erin.id}/`, { is_active: false });
    assertRefused(await erin.call('GET', '/api/'), 403, { detail: 'User inactive' });
    const basic = await t.call('POST', '/api/users/tokens/', {}, { token: null, headers: basicAuth('erin', erin.password) });
    assertRefused(basic, 403, { detail: 'Invalid username/password.' }, 'the reference backend refuses inactive users');
  });

  it('should answer malformed headers with the reference texts', async () => {
    const cases: [string, unknown][] = [
      ['Token', { detail: 'Invalid token header. No credentials provided.' }],
      [`Token ${dave.key} extra`, { detail: 'Invalid token header. Token string should not contain spaces.' }],
      [`Token ${dave.key.slice(0, -1)}${dave.key.endsWith('0') ? '1' : '0'}`, { detail: 'Invalid token' }],
      [`Bearer ${dave.key}`, NOT_PROVIDED],
      [`Basic ${Buffer.from(`dave:${dave.password}`).toString('base64')}`, NOT_PROVIDED],
    ];
    for (const [authorization, body] of cases) assert.deepEqual((await get({ authorization })).body, body, authorization);
    assert.equal((await get({ authorization: `token  ${dave.key}` })).status, 200, 'keyword case and extra whitespace as DRF');
  });

  it('should answer bad HTTP Basic credentials on the tokens endpoint with DRF texts', async () => {
    const post = (authorization: string) => t.call('POST', '/api/users/tokens/', {}, { token: null, headers: { authorization } });
    assertRefused(await post('Basic'), 403, { detail: 'Invalid basic header. No credentials provided.' });
    assertRefused(await post('Basic a b'), 403, { detail: 'Invalid basic header. Credentials string should not contain spaces.' });
    assertRefused(await post('Basic !!!'), 403, { detail: 'Invalid basic header. Credentials not correctly base64 encoded.' });
    assertRefused(await post(basicAuth('dave', 'wrong').authorization), 403, { detail: 'Invalid username/password.' });
    const noGrant = await create(t, '/api/users/users/', { username: 'frank', password: 'frank-pw-1' });
    assert.ok(noGrant.id);
    assert.deepEqual((await post(basicAuth('frank', 'frank-pw-1').authorization)).body, DENIED, 'still needs users.add_token');
  });

  it('should record the acting user on every change-log entry', async () => {
    const made = await dave.call('POST', '/api/tenancy/tenants/', { name: 'logged' });
    await dave.call('PATCH', `/api/tenancy/tenants/${made.body.id}/`, { description: 'changed' });
    await dave.call('DELETE', `/api/tenancy/tenants/${made.body.id}/`);
    const log = await t.call('GET', `/api/extras/object-changes/?changed_object_id=${made.body.id}`);
    assert.deepEqual(log.body.results.map((r: any) => [r.action.value, r.user_name, r.user?.id]), [
      ['delete', 'dave', dave.id], ['update', 'dave', dave.id], ['create', 'dave', dave.id],
    ]);
  });
});

describe('EXEMPT_VIEW_PERMISSIONS', () => {
  it('should with * let anyone read models except users, groups and permissions', async () => {
    const open = await makeApp({ exemptViewPermissions: ['*'] });
    try {
      const grace = await makeUser(open, 'grace');
      const asAnon = (url: string) => open.call('GET', url, undefined, { token: null });
      assert.equal((await asAnon('/api/tenancy/tenants/')).status, 200);
      assert.equal((await grace.call('GET', '/api/tenancy/tenants/')).status, 200);
      for (const url of ['/api/users/users/', '/api/users/groups/', '/api/users/permissions/']) {
        assert.deepEqual((await asAnon(url)).body, NOT_PROVIDED, url);
        assert.deepEqual((await grace.call('GET', url)).body, DENIED, url);
      }
      assert.equal((await asAnon('/api/users/tokens/')).body.count, 0, 'no token is anyone\'s when anonymous');
      assert.deepEqual((await asAnon('/api/users/config/')).body, NOT_PROVIDED);
      assert.deepEqual((await open.call('POST', '/api/tenancy/tenants/', { name: 'x' }, { token: null })).body, NOT_PROVIDED);
      assertRefused(await grace.call('POST', '/api/tenancy/tenants/', { name: 'x' }), 403, { detail: 'You do not have permission to perform this action.' }, 'view only');
    } finally {
      await open.close();
    }
  });

  it('should with app.model entries exempt only those models, for authenticated users', async () => {
    const some = await makeApp({ exemptViewPermissions: ['tenancy.tenant'] });
    try {
      const henry = await makeUser(some, 'henry');
      assert.equal((await henry.call('GET', '/api/tenancy/tenants/')).status, 200);
      assertRefused(await henry.call('GET', '/api/dcim/locations/'), 403, { detail: 'You do not have permission to perform this action.' });
      assert.deepEqual((await some.call('GET', '/api/tenancy/tenants/', undefined, { token: null })).body, NOT_PROVIDED);
    } finally {
      await some.close();
    }
  });
});
