import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../helpers/app.js';
import { makeUser } from '../helpers/users.js';
import type { TestApp } from '../helpers/app.js';

let t: TestApp;

before(async () => {
  t = await makeApp();
  const type = await create(t, '/api/dcim/location-types/', { name: 'Site', content_types: ['dcim.device'] });
  await create(t, '/api/dcim/locations/', [{ name: 'ams', location_type: type.id, status: 'Active' }, { name: 'nyc', location_type: type.id, status: 'Active' }]);
});
after(() => t.close());

const post = (body: unknown, opts?: Parameters<TestApp['call']>[3]) => t.call('POST', '/api/graphql/', body, opts);

describe('POST /api/graphql/', () => {
  it('should answer a query with data and the API version', async () => {
    const res = await post({ query: '{ locations { name } }' });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { data: { locations: [{ name: 'ams' }, { name: 'nyc' }] } });
    assert.equal(res.headers['api-version'], '2.4');
    assert.match(String(res.headers['content-type']), /^application\/json/);
  });

  it('should take variables, an operation name and an application/graphql body', async () => {
    const query = 'query A($n: [String]) { locations(name: $n) { name } } query B { locations(name: "nyc") { name } }';
    assert.deepEqual((await post({ query, variables: { n: 'ams' }, operationName: 'A' })).body, { data: { locations: [{ name: 'ams' }] } });
    assert.deepEqual((await post({ query, variables: '{"n": ["nyc"]}', operationName: 'A' })).body, { data: { locations: [{ name: 'nyc' }] } });
    const raw = await t.call('POST', '/api/graphql/', '{ locations(name: "nyc") { name } }', { headers: { 'content-type': 'application/graphql' } });
    assert.deepEqual(raw.body, { data: { locations: [{ name: 'nyc' }] } });
    const inUrl = await t.call('POST', `/api/graphql/?query=${encodeURIComponent('{ locations(name: "ams") { name } }')}`);
    assert.deepEqual(inUrl.body, { data: { locations: [{ name: 'ams' }] } });
  });

  it('should refuse a request without a query with 400', async () => {
    for (const body of [{}, { query: '' }, undefined]) {
      const res = await post(body);
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, { errors: [{ message: 'Must provide query string.' }] });
    }
    const other = await t.call('POST', '/api/graphql/', 'query=x', { headers: { 'content-type': 'text/plain' } });
    assert.deepEqual([other.status, other.body], [400, { errors: [{ message: 'Must provide query string.' }] }]);
  });

  it('should refuse invalid JSON bodies and variables with 400', async () => {
    const body = await t.call('POST', '/api/graphql/', '{"query": ', { headers: { 'content-type': 'application/json' } });
    assert.deepEqual([body.status, body.body], [400, { errors: [{ message: 'Request body contained Invalid JSON.' }] }]);
    const vars = await post({ query: '{ locations { name } }', variables: '{not json' });
    assert.deepEqual([vars.status, vars.body], [400, { errors: [{ message: 'Variables are invalid JSON.' }] }]);
  });

  it('should answer syntax and validation errors with 400 and no data', async () => {
    const syntax = await post({ query: '{ locations { name }' });
    assert.equal(syntax.status, 400);
    assert.deepEqual(syntax.body, { errors: [{ message: 'Syntax Error: Expected Name, found <EOF>.', locations: [{ line: 1, column: 21 }] }] });
    const unknown = await post({ query: '{ locations { nope } }' });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.data, undefined);
    assert.match(unknown.body.errors[0].message, /^Cannot query field "nope" on type "LocationType"\./);
    assert.deepEqual(unknown.body.errors[0].locations, [{ line: 1, column: 15 }]);
  });

  it('should refuse a variable of the wrong type with 400 (String! where the filter takes [String], as the reference)', async () => {
    const res = await post({ query: 'query ($name: String!) { locations(name: $name) { name } }', variables: { name: 'ams' } });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { errors: [{ message: 'Variable "$name" of type "String!" used in position expecting type "[String]".', locations: [{ line: 1, column: 8 }, { line: 1, column: 42 }] }] });
    const missing = await post({ query: 'query ($name: [String]!) { locations(name: $name) { name } }' });
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body.errors.map((e: { message: string }) => e.message), ['Variable "$name" of required type "[String]!" was not provided.']);
  });

  it('should refuse mutations and subscriptions with 400 in the reference\'s words', async () => {
    for (const op of ['mutation', 'subscription']) {
      const res = await post({ query: `${op} { locations { name } }` });
      assert.deepEqual([res.status, res.body], [400, { errors: [{ message: `'${op}' is not a supported operation, Only query are supported.` }] }]);
    }
  });

  it('should answer an invalid filter value with 200, the field null and the reference\'s error text', async () => {
    const res = await post({ query: '{ ok: locations(name: "ams") { name } bad: locations(location_type: "nope") { name } }' });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data, { ok: [{ name: 'ams' }], bad: null });
    assert.deepEqual(res.body.errors, [{ message: "{'location_type': ['Select a valid choice. nope is not one of the available choices.']}", locations: [{ line: 1, column: 39 }], path: ['bad'] }]);
    assert.deepEqual(Object.keys(res.body), ['errors', 'data']);
  });

  it('should refuse the anonymous with 403, even with anonymous reads allowed', async () => {
    const res = await post({ query: '{ locations { name } }' }, { token: null });
    assert.deepEqual([res.status, res.body], [403, { detail: 'Authentication credentials were not provided.' }]);
    const exempt = await makeApp({ exemptViewPermissions: ['*'] });
    try {
      const anon = await exempt.call('POST', '/api/graphql/', { query: '{ locations { name } }' }, { token: null });
      assert.equal(anon.status, 403);
    } finally {
      await exempt.close();
    }
  });

  it('should let a read-only token query (the reference asks only for a user)', async () => {
    const user = await makeUser(t, 'gql-readonly', [{ object_types: ['dcim.location'], actions: ['view'] }]);
    const token = await create(t, '/api/users/tokens/', { user: user.id, write_enabled: false });
    const res = await post({ query: '{ locations { name } }' }, { token: token.key });
    assert.deepEqual([res.status, res.body], [200, { data: { locations: [{ name: 'ams' }, { name: 'nyc' }] } }]);
  });

  it('should answer other methods with 405 and Allow', async () => {
    for (const method of ['GET', 'PUT', 'PATCH', 'DELETE'] as const) {
      const res = await t.call(method, '/api/graphql/');
      assert.deepEqual([res.status, res.body, res.headers.allow], [405, { detail: `Method "${method}" not allowed.` }, 'POST, OPTIONS']);
    }
    const options = await t.call('OPTIONS', '/api/graphql/');
    assert.equal(options.status, 200);
    assert.equal(options.body.name, 'Graph QLDRFAPI');
  });
});

describe('GET /api/', () => {
  it('should list graphql between extras and ipam, as the reference', async () => {
    const res = await t.call('GET', '/api/');
    const keys = Object.keys(res.body);
    assert.equal(res.body.graphql, 'http://localhost:80/api/graphql/');
    assert.ok(keys.indexOf('extras') < keys.indexOf('graphql') && keys.indexOf('graphql') < keys.indexOf('ipam'), keys.join(','));
  });
});
