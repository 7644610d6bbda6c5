import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';

/** Issue 17, defect 4: numbers past what the database takes, and what a 500 may say. */
let t: TestApp;
let unbounded: TestApp;

before(async () => {
  t = await makeApp();
  unbounded = await makeApp({ maxPageSize: 0 });
  t.app.get('/test-boom/', async () => {
    throw new TypeError('SQLITE_MISMATCH: datatype mismatch in "tenancy_tenant"');
  });
  for (const app of [t, unbounded]) await create(app, '/api/tenancy/tenants/', Array.from({ length: 3 }, (_, i) => ({ name: `b-${i}` })));
});
after(async () => {
  await t.close();
  await unbounded.close();
});

describe('GET /api/tenancy/tenants/ with offsets and limits past every bound', () => {
  it('should answer an offset beyond 64 bits with an empty page and exact links', async () => {
    const res = await t.call('GET', '/api/tenancy/tenants/?offset=999999999999999999999');
    assert.equal(res.status, 200, res.raw);
    assert.equal(res.body.count, 3);
    assert.deepEqual(res.body.results, []);
    assert.equal(res.body.next, null);
    assert.equal(res.body.previous, 'http://localhost:80/api/tenancy/tenants/?limit=50&offset=999999999999999999949');
  });

  it('should answer an offset of 2^63 with an empty page', async () => {
    const res = await t.call('GET', '/api/tenancy/tenants/?offset=9223372036854775808&limit=2');
    assert.equal(res.status, 200, res.raw);
    assert.deepEqual(res.body.results, []);
    assert.equal(res.body.previous, 'http://localhost:80/api/tenancy/tenants/?limit=2&offset=9223372036854775806');
  });

  it('should cap a limit beyond 64 bits at MAX_PAGE_SIZE', async () => {
    const res = await t.call('GET', '/api/tenancy/tenants/?limit=999999999999999999999999&offset=1');
    assert.equal(res.status, 200, res.raw);
    assert.equal(res.body.results.length, 2);
    assert.equal(res.body.previous, 'http://localhost:80/api/tenancy/tenants/?limit=1000');
  });

  it('should return every row for a limit beyond 64 bits when MAX_PAGE_SIZE is 0', async () => {
    const res = await unbounded.call('GET', '/api/tenancy/tenants/?limit=999999999999999999999999&offset=99999999999999999999');
    assert.equal(res.status, 200, res.raw);
    assert.deepEqual(res.body.results, []);
    const all = await unbounded.call('GET', '/api/tenancy/tenants/?limit=999999999999999999999999');
    assert.equal(all.status, 200, all.raw);
    assert.equal(all.body.results.length, 3);
  });

  it('should answer an oversized offset on a list ordered through a foreign key (walked by target)', async () => {
    const res = await t.call('GET', '/api/dcim/interfaces/?offset=999999999999999999999');
    assert.equal(res.status, 200, res.raw);
    assert.deepEqual(res.body.results, []);
  });
});

describe('integer filters with values no column can hold', () => {
  it('should compare them as numbers (nothing equals them, everything is below them), never a database error', async () => {
    const vlan = await create(t, '/api/ipam/vlans/', { vid: 100, name: 'v100', status: 'Active' });
    for (const big of ['99999999999999999999', '99999999999999999999999', '9223372036854775808']) {
      const equal = await t.call('GET', `/api/ipam/vlans/?vid=${big}`);
      assert.equal(equal.status, 200, equal.raw);
      assert.equal(equal.body.count, 0);
      const below = await t.call('GET', `/api/ipam/vlans/?vid__lt=${big}`);
      assert.equal(below.status, 200, below.raw);
      assert.deepEqual(below.body.results.map((v: { id: string }) => v.id), [vlan.id]);
      const above = await t.call('GET', `/api/ipam/vlans/?vid__gt=-${big}`);
      assert.equal(above.body.count, 1, above.raw);
    }
    for (const path of ['/api/ipam/prefixes/?ip_version=99999999999999999999', '/api/dcim/devices/?vc_position=-99999999999999999999', '/api/dcim/cables/?length=99999999999999999999999', '/api/dcim/interfaces/?mtu__gte=18446744073709551616', '/api/ipam/prefixes/?vlan_vid=99999999999999999999', '/api/dcim/interfaces/?vlan=99999999999999999999']) {
      const res = await t.call('GET', path);
      assert.equal(res.status, 200, `${path}: ${res.raw}`);
      assert.equal(res.body.count, 0, path);
    }
  });
});

describe('GET /api/tenancy/tenants/<a natural key of 150 characters>/', () => {
  it('should find the object (no 414 for a long path segment)', async () => {
    const tenant = await create(t, '/api/tenancy/tenants/', { name: 'n'.repeat(150) });
    const res = await t.call('GET', `/api/tenancy/tenants/${'n'.repeat(150)}/`);
    assert.equal(res.status, 200, res.raw);
    assert.equal(res.body.id, tenant.id);
    const missing = await t.call('DELETE', `/api/tenancy/tenants/${'m'.repeat(3000)}/`);
    assert.equal(missing.status, 404, missing.raw);
    assert.deepEqual(missing.body, { detail: 'No Tenant matches the given query.' });
  });
});

describe('an unexpected error', () => {
  it('should answer 500 in the reference shape without the exception class or message', async () => {
    const res = await t.call('GET', '/test-boom/');
    assert.equal(res.status, 500);
    assert.deepEqual(Object.keys(res.body), ['error', 'exception', 'nautobot_version', 'python_version']);
    assert.doesNotMatch(res.raw, /TypeError|SQLITE|mismatch|tenancy_tenant/);
  });
});
