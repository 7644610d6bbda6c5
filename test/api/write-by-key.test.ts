import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DB_URL, create, makeApp } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';

/**
 * Issue 17, defect 1: a write whose detail path holds a natural key or garbage resolved the key
 * outside its transaction, on the root handle: on SQLite the service froze, on PostgreSQL each
 * request took a second pooled connection. Every write method, both kinds of key.
 */
const GUARD = { timeout: 30_000 };
let t: TestApp;
let locationType: any;

before(async () => {
  t = await makeApp();
  locationType = await create(t, '/api/dcim/location-types/', { name: 'Site', content_types: ['dcim.device'] });
});
after(() => t.close());

async function names(): Promise<string[]> {
  return (await t.call('GET', '/api/tenancy/tenants/?limit=0')).body.results.map((r: any) => r.name).sort();
}

describe('PUT/PATCH/DELETE /api/<app>/<model>/<natural key>/', () => {
  it('should PATCH a tenant named by its natural key', GUARD, async () => {
    await create(t, '/api/tenancy/tenants/', { name: 'T1' });
    const res = await t.call('PATCH', '/api/tenancy/tenants/T1/', { description: 'patched' });
    assert.equal(res.status, 200, res.raw);
    assert.equal(res.body.description, 'patched');
    assert.equal((await t.call('GET', '/api/tenancy/tenants/T1/')).body.description, 'patched');
  });

  it('should PUT a location named by its natural key', GUARD, async () => {
    const status = (await t.call('GET', '/api/extras/statuses/?name=Active')).body.results[0];
    await create(t, '/api/dcim/locations/', { name: 'L1', location_type: locationType.id, status: status.id });
    const res = await t.call('PUT', '/api/dcim/locations/L1/', { name: 'L1', location_type: locationType.id, status: status.id, description: 'put' });
    assert.equal(res.status, 200, res.raw);
    assert.equal(res.body.description, 'put');
  });

  it('should DELETE a tenant named by its natural key', GUARD, async () => {
    await create(t, '/api/tenancy/tenants/', { name: 'T-gone' });
    const res = await t.call('DELETE', '/api/tenancy/tenants/T-gone/');
    assert.equal(res.status, 204, res.raw);
    assert.ok(!(await names()).includes('T-gone'));
  });

  for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
    for (const key of ['no-such-tenant', 'not-a-uuid', '%20', 'a;b;c;d', "x'--", '00000000-0000-0000-0000-000000000000']) {
      it(`should answer ${method} .../${key}/ with 404 and change nothing`, GUARD, async () => {
        const before = await names();
        const res = await t.call(method, `/api/tenancy/tenants/${key}/`, method === 'DELETE' ? undefined : { name: 'renamed', description: 'x' });
        assert.equal(res.status, 404, res.raw);
        assert.deepEqual(res.body, { detail: 'No Tenant matches the given query.' });
        assert.deepEqual(await names(), before);
      });
    }
  }

  it('should read a natural key holding a % that starts no escape as the text it is (Python unquote_plus)', GUARD, async () => {
    const tenant = await create(t, '/api/tenancy/tenants/', { name: '100%' });
    const res = await t.call('PATCH', '/api/tenancy/tenants/100%25/', { description: 'percent' });
    assert.equal(res.status, 200, res.raw);
    assert.equal(res.body.id, tenant.id);
    const group = await t.call('POST', '/api/tenancy/tenant-groups/', { name: 'g%', parent: 'fe80::1%eth0' });
    assert.equal(group.status, 400, group.raw);
    assert.ok(group.body.parent, group.raw);
  });

  it('should answer DELETE of an unknown VRF key with 404', GUARD, async () => {
    const res = await t.call('DELETE', '/api/ipam/vrfs/no-such-vrf/');
    assert.equal(res.status, 404, res.raw);
    assert.deepEqual(res.body, { detail: 'No VRF matches the given query.' });
  });

  it('should keep serving after every one of them (the service did not freeze)', GUARD, async () => {
    assert.equal((await t.call('GET', '/api/tenancy/tenants/')).status, 200);
    assert.equal((await t.call('GET', '/health/', undefined, { token: null })).status, 200);
  });
});

describe('PUT/PATCH/DELETE /api/<app>/<model>/ (bulk) with keys that are not ids', () => {
  for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
    for (const id of ['T1', 'not-a-uuid', 12, { name: 'T1' }]) {
      it(`should refuse bulk ${method} with id ${JSON.stringify(id)} (400 naming id) and change nothing`, GUARD, async () => {
        const before = await names();
        const res = await t.call(method, '/api/tenancy/tenants/', [{ id, name: 'renamed' }]);
        assert.equal(res.status, 400, res.raw);
        assert.ok(Array.isArray(res.body) && res.body[0].id, res.raw);
        assert.deepEqual(await names(), before);
      });
    }
    it(`should skip an unknown id in bulk ${method} and change nothing`, GUARD, async () => {
      const before = await names();
      const res = await t.call(method, '/api/tenancy/tenants/', [{ id: '00000000-0000-4000-8000-000000000000', name: 'renamed' }]);
      assert.ok(res.status === 200 || res.status === 204, res.raw);
      assert.deepEqual(await names(), before);
    });
  }
});

describe('ten writes by natural key at once', () => {
  it(`should all succeed without exhausting the connection pool (${DB_URL.startsWith('postgres') ? 'PostgreSQL, pool of 10' : 'SQLite'})`, GUARD, async () => {
    await create(t, '/api/tenancy/tenants/', Array.from({ length: 10 }, (_, i) => ({ name: `many-${i}` })));
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => t.call('PATCH', `/api/tenancy/tenants/many-${i}/`, { description: `d${i}` })));
    assert.deepEqual(answers.map((a) => a.status), Array(10).fill(200));
    const garbage = await Promise.all(Array.from({ length: 10 }, (_, i) => t.call(i % 2 ? 'DELETE' : 'PUT', `/api/tenancy/tenants/garbage-${i}/`, i % 2 ? undefined : { name: 'x' })));
    assert.deepEqual(garbage.map((a) => a.status), Array(10).fill(404));
  });
});
