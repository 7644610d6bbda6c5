import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';

const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

let t: TestApp;
let tenant: any;
before(async () => {
  t = await makeApp();
  [tenant] = await create(t, '/api/tenancy/tenants/', [{ name: '<script>alert("x")</script>', description: 'a & b' }]);
});
after(() => t.close());

describe('GET /api/ with Accept: text/html', () => {
  it('should render the root as HTML with links to every app', async () => {
    const res = await t.call('GET', '/api/', undefined, { headers: HTML });
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    assert.match(res.raw, /<a href="http:\/\/localhost:80\/api\/dcim\/">&quot;http:\/\/localhost:80\/api\/dcim\/&quot;<\/a>/);
  });

  it('should keep JSON for API clients', async () => {
    for (const accept of [undefined, '*/*', 'application/json']) {
      const res = await t.call('GET', '/api/', undefined, { headers: accept ? { accept } : {} });
      assert.match(String(res.headers['content-type']), /^application\/json/, String(accept));
    }
  });
});

describe('list and detail pages', () => {
  it('should render a list with ?format=api and escape every value', async () => {
    const res = await t.call('GET', '/api/tenancy/tenants/?format=api');
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    assert.ok(!res.raw.includes('<script>alert'));
    assert.ok(res.raw.includes('&lt;script&gt;alert(\\&quot;x\\&quot;)&lt;/script&gt;'));
    assert.ok(res.raw.includes('a &amp; b'));
    assert.ok(res.raw.includes(`<a href="http://localhost:80/api/tenancy/tenants/${tenant.id}/">`));
  });

  it('should render a detail with the response status and headers', async () => {
    const res = await t.call('GET', `/api/tenancy/tenants/${tenant.id}/`, undefined, { headers: HTML });
    assert.match(res.raw, /<b>HTTP 200 OK<\/b>\nAllow: GET, PUT, PATCH, DELETE, HEAD, OPTIONS\nAPI-Version: 2.4/);
  });

  it('should render errors as pages too', async () => {
    const res = await t.call('GET', '/api/tenancy/tenants/00000000-0000-0000-0000-000000000000/?format=api');
    assert.equal(res.status, 404);
    assert.match(res.raw, /HTTP 404 Not Found/);
    assert.match(res.raw, /No Tenant matches the given query\./);
  });
});

describe('GET /api/docs/', () => {
  it('should serve Swagger UI pointing at the schema, with api_version carried', async () => {
    const res = await t.call('GET', '/api/docs/?api_version=2.2');
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    assert.match(res.raw, /src="\/static\/swagger-ui\/swagger-ui-bundle\.js"/);
    assert.match(res.raw, /"url":"\/api\/swagger\.json\?api_version=2\.2"/);
    assert.match(res.raw, /"validatorUrl":null/);
  });

  it('should serve the Swagger UI assets locally and nothing else from the package', async () => {
    const bundle = await t.call('GET', '/static/swagger-ui/swagger-ui-bundle.js', undefined, { token: null });
    assert.equal(bundle.status, 200);
    assert.match(String(bundle.headers['content-type']), /javascript/);
    assert.equal((await t.call('GET', '/static/swagger-ui/index.html', undefined, { token: null })).status, 404);
  });
});

describe('GET /api/redoc/', () => {
  it('should serve ReDoc pointing at the schema, with api_version carried', async () => {
    const res = await t.call('GET', '/api/redoc/?api_version=2.2');
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    assert.match(res.raw, /<redoc spec-url="\/api\/swagger\.json\?api_version=2\.2"><\/redoc>/);
    assert.match(res.raw, /src="\/static\/redoc\/redoc\.standalone\.js"/);
  });

  it('should serve the ReDoc bundle locally and nothing else from the package', async () => {
    const bundle = await t.call('GET', '/static/redoc/redoc.standalone.js', undefined, { token: null });
    assert.equal(bundle.status, 200);
    assert.match(String(bundle.headers['content-type']), /javascript/);
    assert.equal((await t.call('GET', '/static/redoc/redoc.lib.js', undefined, { token: null })).status, 404);
  });
});
