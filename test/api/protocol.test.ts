import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../helpers/app.js';
import { assertRefused } from '../helpers/refusals.js';
import type { TestApp } from '../helpers/app.js';

let t: TestApp;
before(async () => { t = await makeApp(); });
after(() => t.close());

describe('authentication', () => {
  it('should refuse anonymous reads and writes with 403', async () => {
    for (const method of ['GET', 'POST'] as const) {
      const res = await t.call(method, '/api/dcim/locations/', method === 'POST' ? {} : undefined, { token: null });
      assert.equal(res.status, 403);
      assert.deepEqual(res.body, { detail: 'Authentication credentials were not provided.' });
    }
  });

  it('should give the reference texts for bad token headers', async () => {
    const cases: [string, string][] = [
      ['Token 0000000000000000000000000000000000000000', 'Invalid token'],
      ['Token', 'Invalid token header. No credentials provided.'],
      ['Token a b', 'Invalid token header. Token string should not contain spaces.'],
    ];
    for (const [header, detail] of cases) {
      const res = await t.call('GET', '/api/dcim/locations/', undefined, { token: null, headers: { authorization: header } });
      assert.equal(res.status, 403, header);
      assert.deepEqual(res.body, { detail });
    }
  });

  it('should refuse writes with a read-only token and honour expiry', async () => {
    const ro = await create(t, '/api/users/tokens/', { write_enabled: false });
    assert.equal(ro.key.length, 40);
    assert.equal((await t.call('GET', '/api/dcim/locations/', undefined, { token: ro.key })).status, 200);
    const write = await t.call('POST', '/api/tenancy/tenants/', { name: 'x' }, { token: ro.key });
    assert.equal(write.status, 403);
    assert.deepEqual(write.body, { detail: 'You do not have permission to perform this action.' });
    const old = await create(t, '/api/users/tokens/', { expires: '2000-01-01T00:00:00Z' });
    const expired = await t.call('GET', '/api/dcim/locations/', undefined, { token: old.key });
    assertRefused(expired, 403, { detail: 'Token expired' });
  });

  it('should let a user provision a token with HTTP Basic', async () => {
    const basic = `Basic ${Buffer.from('admin:admin-pass').toString('base64')}`;
    const res = await t.call('POST', '/api/users/tokens/', { description: 'via basic' }, { token: null, headers: { authorization: basic } });
    assert.equal(res.status, 201, res.raw);
    assert.match(res.body.key, /^[0-9a-f]{40}$/);
    assert.equal(res.body.display, `${res.body.key.slice(-6)} (admin)`);
  });
});

describe('versioning', () => {
  it('should default to 2.4 and echo the requested version', async () => {
    assert.equal((await t.call('GET', '/api/')).headers['api-version'], '2.4');
    const res = await t.call('GET', '/api/dcim/locations/', undefined, { headers: { accept: 'application/json; version=2.2' } });
    assert.equal(res.headers['api-version'], '2.2');
    assert.equal((await t.call('GET', '/api/dcim/locations/?api_version=2.1')).headers['api-version'], '2.1');
  });

  it('should reject unsupported and mismatched versions as the reference', async () => {
    const header = await t.call('GET', '/api/dcim/locations/', undefined, { headers: { accept: 'application/json; version=9.9' } });
    assert.equal(header.status, 406);
    assert.equal(header.body.detail, 'Invalid version "9.9" in "Accept" header. Supported versions are: 2.0, 2.1, 2.2, 2.3, 2.4');
    const query = await t.call('GET', '/api/dcim/locations/?api_version=1.3');
    assert.equal(query.status, 404);
    assert.equal(query.headers['api-version'], undefined);
    const mismatch = await t.call('GET', '/api/dcim/locations/?api_version=2.2', undefined, { headers: { accept: 'application/json; version=2.3' } });
    assert.equal(mismatch.status, 400);
    assert.deepEqual(mismatch.body, { detail: 'Version mismatch between "Accept" header and query parameter.' });
  });
});

describe('errors and routing', () => {
  it('should redirect a path without trailing slash with 302', async () => {
    const res = await t.call('GET', '/api/dcim/locations?limit=1');
    assert.equal(res.status, 302);
    assert.equal(res.headers.location, '/api/dcim/locations/?limit=1');
  });

  it('should answer unknown paths and formats with a plain 404', async () => {
    const res = await t.call('GET', '/api/dcim/no-such-endpoint/');
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, { detail: 'Not found.' });
    assert.equal((await t.call('GET', '/api/dcim/locations/?format=xml')).status, 404);
  });

  it('should answer 405 with Allow for methods an endpoint lacks', async () => {
    const tenant = await create(t, '/api/tenancy/tenants/', { name: 'allow-test' });
    const res = await t.call('POST', `/api/tenancy/tenants/${tenant.id}/`, { name: 'x' });
    assert.equal(res.status, 405);
    assert.deepEqual(res.body, { detail: 'Method "POST" not allowed.' });
    assert.equal(res.headers.allow, 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS');
    const ro = await t.call('POST', '/api/extras/object-changes/', {});
    assertRefused(ro, 405, { detail: 'Method "POST" not allowed.' });
    assert.equal(ro.headers.allow, 'GET, HEAD, OPTIONS');
  });

  it('should report malformed JSON and unsupported media types', async () => {
    const bad = await t.call('POST', '/api/tenancy/tenants/', '{"name": ', { headers: { 'content-type': 'application/json' } });
    assert.equal(bad.status, 400);
    assert.match(bad.body.detail, /^JSON parse error - /);
    const plain = await t.call('POST', '/api/tenancy/tenants/', 'name=x', { headers: { 'content-type': 'text/plain' } });
    assert.equal(plain.status, 415);
    assert.deepEqual(plain.body, { detail: 'Unsupported media type "text/plain" in request.' });
  });

  it('should refuse out-of-range depth and accept exclude_m2m', async () => {
    assertRefused(await t.call('GET', '/api/dcim/locations/?depth=11'), 400, { detail: "'depth' may not be greater than 10." });
    assert.equal((await t.call('GET', '/api/dcim/locations/?depth=abc')).status, 200);
    const tag = await t.call('GET', '/api/extras/statuses/?limit=1&exclude_m2m=true');
    assert.equal(tag.body.results[0].content_types, undefined);
  });

  it('should shape bulk errors as the reference', async () => {
    const notList = await t.call('PATCH', '/api/tenancy/tenants/', { id: 'x' });
    assertRefused(notList, 400, { non_field_errors: ['Expected a list of items but got type "dict".'] });
    const noId = await t.call('PATCH', '/api/tenancy/tenants/', [{ description: 'no id' }]);
    assertRefused(noId, 400, [{ id: ['This field is required.'] }]);
    const many = await t.call('POST', '/api/tenancy/tenants/', [{ name: 'ok-bulk' }, {}]);
    assertRefused(many, 400, [{}, { name: ['This field is required.'] }]);
  });
});

describe('roots, status and health', () => {
  it('should list apps and their endpoints', async () => {
    const root = await t.call('GET', '/api/');
    assert.equal(root.body.dcim, 'http://localhost:80/api/dcim/');
    const dcim = await t.call('GET', '/api/dcim/');
    assert.equal(dcim.body.locations, 'http://localhost:80/api/dcim/locations/');
    assert.deepEqual((await t.call('GET', '/api/plugins/')).body, { 'installed-plugins': 'http://localhost:80/api/plugins/installed-plugins/' });
    assert.deepEqual((await t.call('GET', '/api/apps/')).body, { 'installed-apps': 'http://localhost:80/api/apps/installed-apps/' });
  });

  it('should report status and health', async () => {
    const status = await t.call('GET', '/api/status/');
    assert.equal(status.body['nautobot-version'], '2.4.36', 'the Nautobot release whose API is matched');
    assert.match(status.body['netsot-version'], /^\d+\.\d+\.\d+/);
    assert.deepEqual(Object.keys(status.body).slice(0, 7), ['django-version', 'installed-apps', 'nautobot-version', 'nautobot-apps', 'plugins', 'python-version', 'celery-workers-running']);
    const health = await t.call('GET', '/health/', undefined, { token: null });
    assert.equal(health.status, 200);
    assert.equal(health.body.status, 'ok');
  });
});

describe('pagination', () => {
  it('should build sorted next/previous links carrying limit and offset', async () => {
    for (let i = 0; i < 5; i += 1) await create(t, '/api/tenancy/tenant-groups/', { name: `page-${i}` });
    const first = await t.call('GET', '/api/tenancy/tenant-groups/?name__isw=page&limit=2');
    assert.equal(first.body.count, 5);
    assert.equal(first.body.next, 'http://localhost:80/api/tenancy/tenant-groups/?limit=2&name__isw=page&offset=2');
    assert.equal(first.body.previous, null);
    const second = await t.call('GET', '/api/tenancy/tenant-groups/?name__isw=page&limit=2&offset=2');
    assert.equal(second.body.previous, 'http://localhost:80/api/tenancy/tenant-groups/?limit=2&name__isw=page');
    const beyond = await t.call('GET', '/api/tenancy/tenant-groups/?name__isw=page&offset=99');
    assert.deepEqual([beyond.body.results, beyond.body.next], [[], null]);
  });

  it('should sort ascending and descending and ignore unknown sort names', async () => {
    const desc = await t.call('GET', '/api/tenancy/tenant-groups/?name__isw=page&sort=-name');
    assert.deepEqual(desc.body.results.map((r: { name: string }) => r.name), ['page-4', 'page-3', 'page-2', 'page-1', 'page-0']);
    const bogus = await t.call('GET', '/api/tenancy/tenant-groups/?name__isw=page&sort=bogus');
    assert.equal(bogus.body.results[0].name, 'page-0');
  });
});

describe('HEAD and page-size limits', () => {
  it('should answer HEAD like GET without a body', async () => {
    const res = await t.call('HEAD', '/api/tenancy/tenant-groups/');
    assert.equal(res.status, 200);
    assert.equal(res.raw, '');
    assert.equal(res.headers['api-version'], '2.4');
  });

  it('should clamp limit to MAX_PAGE_SIZE and read limit=0 as the maximum', async () => {
    const small = await makeApp({ maxPageSize: 3 });
    try {
      for (let i = 0; i < 5; i += 1) await create(small, '/api/tenancy/tenants/', { name: `cap-${i}` });
      assert.equal((await small.call('GET', '/api/tenancy/tenants/?limit=100')).body.results.length, 3);
      const zero = await small.call('GET', '/api/tenancy/tenants/?limit=0');
      assert.equal(zero.body.results.length, 3);
      assert.match(zero.body.next, /limit=3/);
    } finally {
      await small.close();
    }
  });

  it('should return everything for limit=0 when MAX_PAGE_SIZE is 0', async () => {
    const open = await makeApp({ maxPageSize: 0, paginateCount: 2 });
    try {
      for (let i = 0; i < 5; i += 1) await create(open, '/api/tenancy/tenants/', { name: `all-${i}` });
      const all = await open.call('GET', '/api/tenancy/tenants/?limit=0');
      assert.equal(all.body.results.length, 5);
      assert.deepEqual([all.body.next, all.body.previous], [null, null]);
      assert.equal((await open.call('GET', '/api/tenancy/tenants/')).body.results.length, 2);
    } finally {
      await open.close();
    }
  });
});
