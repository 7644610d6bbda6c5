import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { getIntrospectionQuery } from 'graphql';
import { create, makeApp } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';

let t: TestApp;

before(async () => {
  t = await makeApp({ graphqlMaxDepth: 3, graphqlMaxNodes: 10 });
  const type = await create(t, '/api/dcim/location-types/', { name: 'Region', nestable: true });
  const root = await create(t, '/api/dcim/locations/', { name: 'eu', location_type: type.id, status: 'Active' });
  await create(t, '/api/dcim/locations/', Array.from({ length: 8 }, (_, i) => ({ name: `site-${i}`, location_type: type.id, parent: root.id, status: 'Active' })));
});
after(() => t.close());

const post = (query: string) => t.call('POST', '/api/graphql/', { query });

describe('GraphQL limits', () => {
  it('should refuse a query nested deeper than GRAPHQL_MAX_DEPTH with 400, fragments included', async () => {
    assert.equal((await post('{ locations(limit: 1) { parent { parent { name } } } }')).body.data.locations.length, 1);
    const deep = await post('{ locations { parent { parent { parent { name } } } } }');
    assert.deepEqual([deep.status, deep.body], [400, { errors: [{ message: 'Query is nested 4 levels deep; the maximum is 3 (GRAPHQL_MAX_DEPTH).', locations: [{ line: 1, column: 1 }] }] }]);
    const viaFragment = await post('query { locations { ...up } } fragment up on LocationType { parent { parent { children { name } } } }');
    assert.equal(viaFragment.status, 400);
  });

  it('should not count introspection toward the depth', async () => {
    const res = await post(getIntrospectionQuery());
    assert.equal(res.status, 200);
    assert.ok(res.body.data.__schema.types.some((type: { name: string }) => type.name === 'DeviceType'));
  });

  it('should end a query that returns more than GRAPHQL_MAX_NODES objects with one clear error', async () => {
    assert.equal((await post('{ locations { name } }')).body.data.locations.length, 9);
    const res = await post('{ locations { name children { name } } }');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { errors: [{ message: 'Query result exceeds the limit of 10 objects (GRAPHQL_MAX_NODES); narrow it with filters or limit/offset.' }], data: null });
    const again = await post('{ a: locations { name } b: locations { name } }');
    assert.equal(again.body.data, null);
    assert.equal((await post('{ locations(limit: 5) { name parent { name } } }')).body.data.locations.length, 5);
  });

  it('should read no more lists once the budget is spent, however many a query asks for at once', async () => {
    const dialect = t.app.services.dialect;
    const aliases = Array.from({ length: 20 }, (_, i) => `a${i}: locations { name }`).join(' ');
    const start = dialect.queryCount();
    const res = await post(`{ ${aliases} }`);
    const atResponse = dialect.queryCount() - start;
    assert.equal(res.body.data, null);
    assert.match(res.body.errors[0].message, /GRAPHQL_MAX_NODES/);
    // The first list brings 9 of the 10 objects allowed, the second the two rows that pass the
    // limit; the other 18 are never read (before: 40 statements, some after the answer). The rest
    // are the request's own (the token, on PostgreSQL the schema's generation).
    assert.ok(atResponse <= 6, `${atResponse} statements`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(dialect.queryCount() - start, atResponse, 'nothing read after the answer');
    // Lists of a fixed size that fit in the budget together are read together, as before.
    const fits = await post('{ a: locations(limit: 4) { name } b: locations(limit: 4) { name } }');
    assert.deepEqual([fits.body.data.a.length, fits.body.data.b.length], [4, 4]);
  });
});
