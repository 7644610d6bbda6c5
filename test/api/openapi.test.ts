import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import Fastify from 'fastify';
import { parse as parseYaml } from 'yaml';
import { getOpenApiDocument } from '../../src/api/openapi/document.js';
import { getDocumentSource, registerOpenApi } from '../../src/api/openapi/routes.js';
import { filterSet } from '../../src/ops/filters/filter-set.js';
import { create, makeApp } from '../helpers/app.js';
import { assertRefused } from '../helpers/refusals.js';
import type { TestApp } from '../helpers/app.js';

let t: TestApp;
let doc: any;

before(async () => {
  t = await makeApp();
  doc = (await t.call('GET', '/api/swagger.json')).body;
});
after(() => t.close());

const opNames = (item: Record<string, unknown>) => Object.keys(item).filter((k) => k !== 'parameters').sort();

describe('GET /api/swagger.json', () => {
  it('should validate against the OpenAPI 3 specification', async () => {
    const result = await new Validator().validate(doc);
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2)?.slice(0, 4000));
    assert.equal(doc.openapi, '3.0.3');
  });

  it('should list every registered model with its list and detail paths and verbs', () => {
    for (const model of t.app.services.registry.models.filter((m) => !m.internal)) {
      const list = doc.paths[`/${model.app}/${model.path}/`];
      const detail = doc.paths[`/${model.app}/${model.path}/{id}/`];
      assert.ok(list && detail, model.id);
      const writes = model.creatable ? ['delete', 'get', 'patch', 'post', 'put'] : ['delete', 'get', 'patch', 'put'];
      // Read-only models answer GET only, or GET and DELETE when their objects may be deleted (job results).
      const readOnly = model.deletable ? ['delete', 'get'] : ['get'];
      assert.deepEqual(opNames(list), model.read_only ? readOnly : writes, model.id);
      assert.deepEqual(opNames(detail), model.read_only ? readOnly : ['delete', 'get', 'patch', 'put'], model.id);
    }
  });

  it('should write paths relative to /api with servers [{url: "/api"}]', () => {
    assert.deepEqual(doc.servers, [{ url: '/api' }]);
    assert.ok(Object.keys(doc.paths).every((p) => !p.startsWith('/api/')));
    assert.ok(doc.paths['/dcim/locations/']);
  });

  it('should offer every generated filter and lookup, and the list parameters', () => {
    for (const model of t.app.services.registry.models.filter((m) => !m.internal)) {
      const names = new Set(doc.paths[`/${model.app}/${model.path}/`].get.parameters.map((p: any) => p.name));
      for (const [filter, def] of filterSet(model)) {
        assert.ok(names.has(filter), `${model.id} ${filter}`);
        for (const lookup of def.lookups) assert.ok(names.has(`${filter}__${lookup}`), `${model.id} ${filter}__${lookup}`);
      }
      for (const p of ['depth', 'include', 'format', 'limit', 'offset', 'sort', 'exclude_m2m']) assert.ok(names.has(p), `${model.id} ${p}`);
    }
  });

  it('should derive request and response schemas with required flags', () => {
    const { Location, LocationRequest, PatchedLocationRequest, PaginatedLocationList } = doc.components.schemas;
    assert.deepEqual([...LocationRequest.required].sort(), ['location_type', 'name', 'status']);
    assert.equal(PatchedLocationRequest.required, undefined);
    assert.ok(Location.required.includes('display'));
    assert.equal(Location.properties.id.format, 'uuid');
    assert.equal(Location.properties.asn.nullable, true);
    assert.equal(LocationRequest.properties.display, undefined);
    assert.equal(PaginatedLocationList.properties.results.items.$ref, '#/components/schemas/Location');
  });

  it('should give choice fields their values as enums', () => {
    const model = t.app.services.registry.models.find((m) => m.fields.some((f) => f.kind === 'choice' && !f.read_only))!;
    const field = model.fields.find((f) => f.kind === 'choice' && !f.read_only)!;
    const names = Object.keys(doc.components.schemas).filter((n) => n.endsWith('Request') && doc.components.schemas[n].properties?.[field.name]);
    const schema = doc.components.schemas[names[0]].properties[field.name];
    const values = schema.enum ?? schema.allOf?.[0]?.enum;
    assert.deepEqual(values, field.choices!.map(([v]) => v));
  });

  it('should describe token authorization and error responses', () => {
    assert.deepEqual(doc.components.securitySchemes.tokenAuth, { type: 'apiKey', in: 'header', name: 'Authorization', description: 'API token, sent as `Token <key>`.' });
    assert.deepEqual(doc.security, [{ tokenAuth: [] }]);
    const del = doc.paths['/dcim/locations/{id}/'].delete.responses;
    assert.deepEqual(Object.keys(del).sort(), ['204', '403', '404', '409']);
  });
});

describe('schema endpoints', () => {
  it('should serve the same document as YAML at /api/swagger.yaml and /api/swagger/', async () => {
    const [yaml, swagger] = [await t.call('GET', '/api/swagger.yaml'), await t.call('GET', '/api/swagger/')];
    for (const res of [yaml, swagger]) {
      assert.equal(res.status, 200);
      assert.match(String(res.headers['content-type']), /^application\/vnd\.oai\.openapi;/);
    }
    // The same bytes at both URLs, so one parse (seconds for a document this size) covers both.
    assert.equal(swagger.raw, yaml.raw);
    assert.deepEqual(parseYaml(yaml.raw), doc);
  });

  it('should answer JSON at /api/swagger/?format=json', async () => {
    const res = await t.call('GET', '/api/swagger/?format=json');
    assert.match(String(res.headers['content-type']), /^application\/json/);
    assert.deepEqual(res.body, doc);
  });

  it('should redirect /api/docs/?format=openapi to /api/swagger.json with 301', async () => {
    const res = await t.call('GET', '/api/docs/?format=openapi');
    assert.equal(res.status, 301);
    assert.equal(res.headers.location, '/api/swagger.json');
  });

  it('should send a weak ETag and answer 304 when it matches', async () => {
    const first = await t.call('GET', '/api/swagger/');
    assert.match(String(first.headers.etag), /^W\/"[0-9a-f]+"$/);
    assert.equal(first.headers['cache-control'], 'max-age=259200, public');
    const again = await t.call('GET', '/api/swagger/', undefined, { headers: { 'if-none-match': String(first.headers.etag) } });
    assert.equal(again.status, 304);
    assert.equal(again.raw, '');
  });

  it('should honour api_version (query or Accept) and build each version once', async () => {
    const byQuery = await t.call('GET', '/api/swagger.json?api_version=2.2');
    assert.equal(byQuery.body.info.version, '2.2');
    const byHeader = await t.call('GET', '/api/swagger.json', undefined, { headers: { accept: 'application/json; version=2.3' } });
    assert.equal(byHeader.body.info.version, '2.3');
    assert.notEqual(byQuery.headers.etag, (await t.call('GET', '/api/swagger.json')).headers.etag);
    const source = getDocumentSource(t.app);
    assert.equal(getOpenApiDocument(source, '2.2'), getOpenApiDocument(source, '2.2'));
  });

  it('should refuse anonymous requests as every /api/ path does', async () => {
    assertRefused(await t.call('GET', '/api/swagger.json', undefined, { token: null }), 403, { detail: 'Authentication credentials were not provided.' });
  });
});

/** Every route the application answers, read from Fastify's own route tree (not from the collector). */
function registeredRoutes(): string[] {
  const out: string[] = [];
  const stack: string[] = [];
  for (const line of t.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^([│ ]*)[├└]── (\S+)/.exec(line);
    if (!m) continue;
    const depth = m[1].length / 4;
    stack.length = depth;
    stack.push(m[2]);
    out.push(stack.join(''));
  }
  return out;
}

/** Schema and docs endpoints, and the installed-apps listings: not part of the document, as in the reference. */
const SELF = new Set(['/api/docs/', '/api/redoc/', '/api/swagger.json', '/api/swagger.yaml', '/api/swagger/', '/api/apps/installed-apps/', '/api/plugins/installed-plugins/']);
const VERBS = ['get', 'post', 'put', 'patch', 'delete'];

describe('extra endpoints and extension filters in /api/swagger.json', () => {
  const extraRoutes = () => registeredRoutes().filter((u) => u.startsWith('/api/') && !u.includes(':app') && !SELF.has(u));
  const toPath = (url: string) => url.slice(4).replace(/:key/g, '{id}');

  it('should list every route registered under /api/', () => {
    const routes = extraRoutes();
    assert.ok(routes.includes('/api/ipam/prefixes/:key/available-ips/') && routes.includes('/api/dcim/interfaces/:key/trace/'), routes.join(' '));
    const missing = routes.filter((u) => !doc.paths[toPath(u)]);
    assert.deepEqual(missing, []);
  });

  it('should document exactly the verbs each extra endpoint allows', async () => {
    const missingId = '00000000-0000-4000-8000-000000000000';
    // The change stream never ends (Server-Sent Events): test/events/change-stream.test.ts reads it over HTTP.
    for (const url of extraRoutes().filter((u) => !['/api/', '/api/status/', '/api/extras/object-changes/stream/'].includes(u))) {
      const res = await t.call('GET', url.replace(':key', missingId));
      const allowed = String(res.headers.allow ?? '').toLowerCase().split(/,\s*/).filter((v) => VERBS.includes(v)).sort();
      assert.ok(allowed.length > 0, `${url}: no Allow header (${res.status})`);
      assert.deepEqual(opNames(doc.paths[toPath(url)]), allowed, url);
    }
  });

  it('should describe parameters and response bodies of the extra endpoints', () => {
    const ips = doc.paths['/ipam/prefixes/{id}/available-ips/'];
    assert.deepEqual(ips.parameters.map((p: any) => [p.name, p.in]), [['id', 'path']]);
    assert.deepEqual(ips.get.parameters.map((p: any) => p.name), ['limit', 'range_start', 'range_end']);
    assert.equal(ips.post.operationId, 'ipam_prefixes_available_ips_create');
    assert.deepEqual(ips.post.responses['201'].content['application/json'].schema.oneOf[0], { $ref: '#/components/schemas/IPAddress' });
    const consoles = doc.paths['/dcim/console-connections/'].get;
    assert.equal(consoles.operationId, 'dcim_console_connections_list');
    assert.equal(consoles.responses['200'].content['application/json'].schema.$ref, '#/components/schemas/PaginatedConsolePortList');
    const names = consoles.parameters.map((p: any) => p.name);
    for (const p of ['device', 'location', 'name', 'name__ic', 'limit', 'offset']) assert.ok(names.includes(p), p);
    const device = doc.paths['/dcim/connected-device/'].get.parameters;
    assert.deepEqual(device.filter((p: any) => p.required).map((p: any) => p.name), ['peer_device', 'peer_interface']);
  });

  it('should list the jobs by name as the reference JobByNameViewSet does, each path answering', async () => {
    const byName: Record<string, Record<string, string>> = {
      '/extras/jobs/{name}/': { get: 'extras_jobs_retrieve_by_name', put: 'extras_jobs_update_by_name', patch: 'extras_jobs_partial_update_by_name', delete: 'extras_jobs_destroy_by_name' },
      '/extras/jobs/{name}/notes/': { get: 'extras_jobs_notes_list_by_name', post: 'extras_jobs_notes_create_by_name' },
      '/extras/jobs/{name}/variables/': { get: 'extras_jobs_variables_list_by_name' },
      '/extras/jobs/{name}/run/': { post: 'extras_jobs_run_create_by_name' },
    };
    for (const [path, ops] of Object.entries(byName)) {
      const item = doc.paths[path];
      assert.ok(item, path);
      assert.deepEqual(item.parameters, [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }], path);
      assert.deepEqual(Object.fromEntries(opNames(item).map((verb) => [verb, item[verb].operationId])), ops, path);
      assert.deepEqual(opNames(item), opNames(doc.paths[path.replace('{name}', '{id}')]), path);
      const res = await t.call(path.endsWith('/run/') ? 'OPTIONS' : 'GET', `/api${path.replace('{name}', encodeURIComponent('Logs Cleanup'))}`);
      assert.equal(res.status, 200, `${path}: ${res.raw}`);
    }
    for (const path of ['/extras/jobs/{id}/run/', '/extras/jobs/{name}/run/']) {
      const content = doc.paths[path].post.requestBody.content;
      assert.deepEqual(Object.keys(content), ['application/json', 'multipart/form-data'], path);
      assert.ok(content['multipart/form-data'].schema.properties._schedule_interval, path);
    }
  });

  it('should refuse, when the route is registered, a description naming an unknown model', async () => {
    const app = Fastify();
    registerOpenApi(app, t.app.services);
    const openapi = { get: { summary: 'Typo', ok: [200, { model: 'dcim.devise' }] as [number, { model: string }] } };
    assert.throws(() => app.route({ method: 'GET', url: '/api/dcim/odd/', config: { openapi }, handler: async () => ({}) }), /GET \/api\/dcim\/odd\/ names an unknown model "dcim.devise"/);
    await app.close();
  });

  it('should offer every extension filter with its lookups and declared value type', () => {
    let checked = 0;
    for (const model of t.app.services.registry.models.filter((m) => !(m as { internal?: boolean }).internal)) {
      const params = new Map(doc.paths[`/${model.app}/${model.path}/`].get.parameters.map((p: any) => [p.name, p]));
      const own = [...(t.app.services.extensions.get(model.id) ?? []), ...(t.app.services.extensions.get('*') ?? [])];
      for (const [name, def] of own.flatMap((ext) => Object.entries(ext.filters ?? {}))) {
        for (const lookup of ['exact', ...def.lookups]) {
          const param: any = params.get(lookup === 'exact' ? name : `${name}__${lookup}`);
          assert.ok(param, `${model.id} ${name} ${lookup}`);
          const item = param.schema.items ?? param.schema;
          if (def.schema && lookup !== 'isnull') assert.equal(item.type, def.schema.type, `${model.id} ${name}`);
          checked += 1;
        }
      }
    }
    assert.ok(checked > 20, String(checked));
    const interfaces = doc.paths['/dcim/interfaces/'].get.parameters;
    assert.deepEqual(interfaces.find((p: any) => p.name === 'has_cable').schema, { type: 'boolean' });
  });
});

describe('data-dependent filters in /api/swagger.json', () => {
  it('should list cf_<key> and cr_<key>__<side> filters that exist now, and change the ETag', async () => {
    const before = await t.call('GET', '/api/swagger.json');
    await create(t, '/api/extras/custom-fields/', { label: 'Floor Count', key: 'floor_count', type: 'integer', content_types: ['tenancy.tenant'] });
    await create(t, '/api/extras/relationships/', { label: 'Tenant sites', key: 'tenant_sites', type: 'many-to-many', source_type: 'tenancy.tenant', destination_type: 'dcim.location' });
    const after = await t.call('GET', '/api/swagger.json');
    assert.notEqual(after.headers.etag, before.headers.etag);
    const params = new Map(after.body.paths['/tenancy/tenants/'].get.parameters.map((p: any) => [p.name, p]));
    for (const name of ['cf_floor_count', 'cf_floor_count__gte', 'cf_floor_count__n']) assert.deepEqual((params.get(name) as any)?.schema.items, { type: 'integer' }, name);
    assert.ok(params.has('cr_tenant_sites__destination'));
    const locations = after.body.paths['/dcim/locations/'].get.parameters.map((p: any) => p.name);
    assert.ok(locations.includes('cr_tenant_sites__source') && !locations.includes('cf_floor_count'));
    const result = await new Validator().validate(after.body);
    assert.equal(result.valid, true, JSON.stringify(result.errors)?.slice(0, 2000));
  });
});
