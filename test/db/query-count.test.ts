import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DB_URL, countStatements, create, makeApp } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';

let t: TestApp;

/** Statements executed by one GET (the response cache is bypassed). */
const countQueries = (url: string): Promise<number> => countStatements(t, url);

before(async () => {
  t = await makeApp({ maxPageSize: 1000 });
  await create(t, '/api/dcim/location-types/', { name: 'Campus', nestable: true, content_types: ['dcim.location'] });
  await create(t, '/api/extras/tags/', { name: 'blue', content_types: ['dcim.location'] });
  const tenant = await create(t, '/api/tenancy/tenants/', { name: 'acme' });
  const roots = await create(t, '/api/dcim/locations/', Array.from({ length: 10 }, (_, i) => ({ name: `root-${i}`, location_type: 'Campus', status: 'Active' })));
  const batch = Array.from({ length: 990 }, (_, i) => ({ name: `loc-${i}`, location_type: 'Campus', status: 'Active', parent: roots[i % 10].id, tenant: tenant.id, tags: ['blue'] }));
  await create(t, '/api/dcim/locations/', batch);
});
after(() => t.close());

describe('GET /api/dcim/locations/ query count', () => {
  it('should not cost more statements for 1000 rows than for 10 at depth 2', async () => {
    const small = await countQueries('/api/dcim/locations/?depth=2&limit=10');
    const large = await countQueries('/api/dcim/locations/?depth=2&limit=1000');
    assert.ok(large <= small, `limit=10 took ${small} statements, limit=1000 took ${large}`);
    assert.ok(large < 40, `a page should cost a small fixed number of statements, got ${large}`);
  });

  it('should not grow with the page size at depth 0 and 1', async () => {
    for (const depth of [0, 1]) {
      const large = await countQueries(`/api/dcim/locations/?depth=${depth}&limit=1000`);
      const small = await countQueries(`/api/dcim/locations/?depth=${depth}&limit=5`);
      assert.ok(large <= small, `depth ${depth}: limit=5 took ${small}, limit=1000 took ${large}`);
    }
  });
});

describe('links and counts of the rows read together', () => {
  it('cost one statement and answer as linksMany and countByMany apart', async () => {
    const { dialect, registry, store } = t.app.services;
    const model = registry.get('dcim.location');
    const fields = model.fields.filter((f) => f.name === 'tags');
    const sources = [{ table: 'dcim_location', column: 'parent_id' }, { table: 'dcim_location', column: 'tenant_id' }];
    const ids = (await dialect.db.selectFrom('dcim_location').select('id').where('parent_id', 'is not', null).limit(20).execute()).map((r) => String(r.id));
    const roots = (await dialect.db.selectFrom('dcim_location').select('id').where('parent_id', 'is', null).execute()).map((r) => String(r.id));
    const asked = [...ids, ...roots];
    const before = dialect.queryCount();
    const together = await store.linksAndCounts(dialect.db, model, fields, sources, asked);
    assert.equal(dialect.queryCount() - before, 1);
    assert.deepEqual(together.links, await store.linksMany(dialect.db, model, fields, asked));
    assert.deepEqual(together.counts, await store.countByMany(dialect.db, sources, asked));
    assert.equal(together.links[0].get(ids[0])?.length, 1);
    assert.equal(together.counts[0].get(roots[0]), 99);
  });

  // SQLite only: on PostgreSQL the outbox publisher's statements after the setup's writes run on the pool meanwhile and are counted too.
  it('a detail GET with tags and counts costs two statements after authentication: its row, then links and counts', { skip: DB_URL.startsWith('postgres') ? 'SQLite only' : false }, async () => {
    const [row] = await t.app.services.dialect.db.selectFrom('dcim_location').select('id').where('name', '=', 'loc-1').execute();
    assert.equal(await countQueries(`/api/dcim/locations/${row.id}/`), 2);
  });
});
