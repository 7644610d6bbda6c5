import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../helpers/app.js';
import { makeUser } from '../helpers/users.js';
import type { TestApp } from '../helpers/app.js';

let t: TestApp;
const PATH = '/api/extras/graphql-queries/';

before(async () => {
  t = await makeApp();
  const type = await create(t, '/api/dcim/location-types/', { name: 'Site' });
  await create(t, '/api/dcim/locations/', [{ name: 'Location-1', location_type: type.id, status: 'Active' }, { name: 'Location-2', location_type: type.id, status: 'Active' }]);
});
after(() => t.close());

describe('POST /api/extras/graphql-queries/', () => {
  it('should derive variables from the query\'s variable definitions, with their defaults', async () => {
    const saved = await create(t, PATH, { name: 'GQL 2', query: 'query ($name: [String!], $limit: Int = 5, $flag: Boolean = true, $text: String = "x") { locations(name: $name, limit: $limit) { name } }' });
    assert.deepEqual(saved.variables, { name: '', limit: '5', flag: true, text: 'x' });
    const plain = await create(t, PATH, { name: 'GQL 1', query: '{ query: locations { name } }' });
    assert.deepEqual(plain.variables, {});
    const patched = await t.call('PATCH', `${PATH}${plain.id}/`, { query: 'query ($n: [String]) { locations(name: $n) { name } }' });
    assert.deepEqual(patched.body.variables, { n: '' });
  });

  it('should refuse a query that does not parse with 400 naming query, and write nothing', async () => {
    const res = await t.call('POST', PATH, { name: 'broken', query: 'THIS TEST WILL ERROR' });
    assert.deepEqual([res.status, res.body], [400, { query: ['Syntax Error: Unexpected Name "THIS".'] }]);
    assert.equal((await t.call('GET', `${PATH}?name=broken`)).body.count, 0);
  });
});

describe('POST /api/extras/graphql-queries/{id}/run/', () => {
  it('should run the saved query with the given variables', async () => {
    const saved = await create(t, PATH, { name: 'by name', query: 'query ($name: [String!]) { locations(name: $name) { name } }' });
    const res = await t.call('POST', `${PATH}${saved.id}/run/`, { variables: { name: 'Location-1' } });
    assert.deepEqual([res.status, res.body], [200, { data: { locations: [{ name: 'Location-1' }] } }]);
    const all = await t.call('POST', `${PATH}${saved.id}/run/`, {});
    assert.deepEqual(all.body, { data: { locations: [{ name: 'Location-1' }, { name: 'Location-2' }] } });
  });

  it('should answer a query invalid against the schema with 200 and its errors, as the reference', async () => {
    const saved = await create(t, PATH, { name: 'stale', query: '{ locations { no_such_field } }' });
    const res = await t.call('POST', `${PATH}${saved.id}/run/`, {});
    assert.equal(res.status, 200);
    assert.equal(res.body.data, undefined);
    assert.match(res.body.errors[0].message, /^Cannot query field "no_such_field" on type "LocationType"\./);
  });

  it('should answer 404 for an unknown id and 403 without the add permission', async () => {
    const missing = await t.call('POST', `${PATH}00000000-0000-4000-8000-000000000000/run/`, {});
    assert.deepEqual([missing.status, missing.body], [404, { detail: 'No GraphQLQuery matches the given query.' }]);
    const saved = await create(t, PATH, { name: 'guarded', query: '{ locations { name } }' });
    const viewer = await makeUser(t, 'viewer', [{ object_types: ['extras.graphqlquery', 'dcim.location'], actions: ['view'] }]);
    const res = await viewer.call('POST', `${PATH}${saved.id}/run/`, {});
    assert.deepEqual([res.status, res.body], [403, { detail: 'You do not have permission to perform this action.' }]);
    const get = await t.call('GET', `${PATH}${saved.id}/run/`);
    assert.deepEqual([get.status, get.body, get.headers.allow], [405, { detail: 'Method "GET" not allowed.' }, 'POST, OPTIONS']);
  });
});
