import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { countStatements, create, makeApp } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';

// The bench's query-count guard as a test (issue 7): a list page costs the same number of
// statements whatever its size. Runs on SQLite, and on PostgreSQL when DATABASE_URL is set.

let t: TestApp;

/** Statements one GET costs, rendered afresh after one unmeasured request to the same URL (see countStatements). */
const statements = (url: string): Promise<number> => countStatements(t, url);

before(async () => {
  t = await makeApp();
  await create(t, '/api/extras/tags/', [
    { name: 'gold', content_types: ['dcim.location'] },
    { name: 'silver', content_types: ['dcim.location'] },
  ]);
  const tenant = await create(t, '/api/tenancy/tenants/', { name: 'Acme' });
  await create(t, '/api/dcim/location-types/', { name: 'Area', nestable: true });
  // A 3-level tree of 48 locations (2 regions > 6 sites > 40 rooms), all alike: one nestable
  // type, one status, one tenant, two tags. Related objects are loaded in waves (the page's
  // own relations, then those of the ancestors) and a wave skips what is already loaded, so a
  // page that happens to hold some ancestors may need one statement less. Alike rows, and
  // rooms sorting first so both pages hold rooms only (and fewer rows than the table, else
  // the count is skipped), make both pages walk the same waves: any difference is per row.
  const common = { status: 'Active', tenant: tenant.id, tags: ['gold', 'silver'], location_type: 'Area' };
  const regions = await create(t, '/api/dcim/locations/', [0, 1].map((i) => ({ ...common, name: `c-region-${i}` })));
  const sites = await create(t, '/api/dcim/locations/', Array.from({ length: 6 }, (_, i) => ({ ...common, name: `b-site-${i}`, parent: regions[i % 2].id })));
  await create(t, '/api/dcim/locations/', Array.from({ length: 40 }, (_, i) => ({ ...common, name: `a-room-${String(i).padStart(2, '0')}`, parent: sites[i % 6].id })));
});

after(() => t.close());

describe('GET /api/dcim/locations/ statement count', () => {
  it('should cost as many statements for 40 rows as for 5 at depth 2', async () => {
    const small = await statements('/api/dcim/locations/?depth=2&limit=5');
    const large = await statements('/api/dcim/locations/?depth=2&limit=40');
    assert.equal(large, small, `limit=5 took ${small} statements, limit=40 took ${large}`);
  });

  it('should not grow with the page at depth 0 and 1', async () => {
    for (const depth of [0, 1]) {
      const small = await statements(`/api/dcim/locations/?depth=${depth}&limit=5`);
      const large = await statements(`/api/dcim/locations/?depth=${depth}&limit=40`);
      assert.equal(large, small, `depth ${depth}: limit=5 took ${small} statements, limit=40 took ${large}`);
    }
  });
});
