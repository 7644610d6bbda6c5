import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { DB_URL, create, makeApp, withGeneration } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';

let t: TestApp;

before(async () => {
  t = await makeApp();
  await create(t, '/api/extras/custom-fields/', { label: 'Owner', type: 'text', content_types: ['tenancy.tenant'] });
  await create(t, '/api/tenancy/tenants/', { name: 'acme', custom_fields: { owner: 'ops' } });
});
after(() => t.close());

/** Statements of one fresh GET, authentication included. */
async function statements(url: string): Promise<{ n: number; body: any }> {
  const before = t.app.services.dialect.queryCount();
  const res = await t.call('GET', url, undefined, { headers: { 'cache-control': 'no-cache' } });
  assert.equal(res.status, 200, res.raw);
  return { n: t.app.services.dialect.queryCount() - before, body: res.body };
}

describe('definitions a read renders with, kept per write generation', () => {
  it('should read the token and the custom field keys once while the generation stands still, on either database', async () => {
    await withGeneration(t, 'still', async () => {
      const first = await statements('/api/tenancy/tenants/');
      const second = await statements('/api/tenancy/tenants/');
      assert.equal(first.n - second.n, 2, `the second GET should skip the token look-up and the custom field keys: ${first.n} then ${second.n} statements`);
      assert.deepEqual(second.body.results[0].custom_fields, { owner: 'ops' });
    });
  });
});

/** The count of a fresh, unfiltered tenant list. */
async function tenantCount(): Promise<number> {
  const res = await t.call('GET', '/api/tenancy/tenants/', undefined, { headers: { 'cache-control': 'no-cache' } });
  assert.equal(res.status, 200, res.raw);
  return res.body.count;
}

describe('counts of unfiltered lists, kept per write generation', () => {
  it('should count every write, on either database', async () => {
    const n = await tenantCount();
    assert.equal(await tenantCount(), n);
    const added = await create(t, '/api/tenancy/tenants/', { name: 'counted' });
    assert.equal(await tenantCount(), n + 1);
    assert.equal(await tenantCount(), n + 1);
    assert.equal((await t.call('DELETE', `/api/tenancy/tenants/${added.id}/`)).status, 204);
    assert.equal(await tenantCount(), n);
  });

  it('should not count again while the generation the count was read in stands (PostgreSQL)', { skip: DB_URL.startsWith('postgres') ? false : 'the generation expression is PostgreSQL\'s' }, async () => {
    const dialect = t.app.services.dialect as { generationSql?: unknown };
    const real = dialect.generationSql;
    dialect.generationSql = sql<string>`'held'`;
    let added: { id: string } | undefined;
    try {
      const n = await tenantCount();
      added = await create(t, '/api/tenancy/tenants/', { name: 'uncounted' });
      // The held generation says nothing was written: the count read in it stands.
      assert.equal(await tenantCount(), n);
      dialect.generationSql = real;
      assert.equal(await tenantCount(), n + 1);
    } finally {
      dialect.generationSql = real;
      if (added) await t.call('DELETE', `/api/tenancy/tenants/${added.id}/`);
    }
  });
});

describe('tree ancestors, kept per write generation', () => {
  it('should read a location\'s ancestors once while the generation stands (SQLite) and show every write, on either database', async () => {
    const region = await create(t, '/api/dcim/location-types/', { name: 'Memo region', content_types: ['dcim.location'], nestable: true });
    const top = await create(t, '/api/dcim/locations/', { name: 'Top', location_type: region.id, status: 'Active' });
    const mid = await create(t, '/api/dcim/locations/', { name: 'Mid', location_type: region.id, status: 'Active', parent: top.id });
    const leaf = await create(t, '/api/dcim/locations/', { name: 'Leaf', location_type: region.id, status: 'Active', parent: mid.id });
    const url = `/api/dcim/locations/${leaf.id}/`;
    // Statements reading the chain, counted at the store.
    const store = t.app.services.store as unknown as { readChain: (...args: unknown[]) => Promise<unknown> };
    const real = store.readChain;
    let chains = 0;
    store.readChain = function (...args) {
      chains += 1;
      return real.apply(this, args);
    };
    try {
      const first = await statements(url);
      const reads = chains;
      const second = await statements(url);
      assert.equal(chains - reads, t.app.services.dialect.freeGeneration ? 0 : reads, 'the second GET reads the chain again only where the generation is not free (PostgreSQL)');
      assert.ok(reads > 0);
      if (t.app.services.dialect.freeGeneration) assert.ok(second.n < first.n, `${first.n} then ${second.n} statements`);
      assert.equal(second.body.display, 'Top → Mid → Leaf');
      assert.deepEqual(second.body, first.body);
    } finally {
      store.readChain = real;
    }
    assert.equal((await t.call('PATCH', `/api/dcim/locations/${top.id}/`, { name: 'Root' })).status, 200);
    assert.equal((await statements(url)).body.display, 'Root → Mid → Leaf');
    assert.equal((await statements(url)).body.display, 'Root → Mid → Leaf');
  });
});
