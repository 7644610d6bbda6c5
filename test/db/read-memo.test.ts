import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
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
  /** A leaf location under Mid under Top, and its detail URL. */
  async function chainOfThree(prefix: string): Promise<{ top: { id: string }; url: string }> {
    const region = await create(t, '/api/dcim/location-types/', { name: `${prefix} region`, content_types: ['dcim.location'], nestable: true });
    const top = await create(t, '/api/dcim/locations/', { name: `${prefix} Top`, location_type: region.id, status: 'Active' });
    const mid = await create(t, '/api/dcim/locations/', { name: `${prefix} Mid`, location_type: region.id, status: 'Active', parent: top.id });
    const leaf = await create(t, '/api/dcim/locations/', { name: `${prefix} Leaf`, location_type: region.id, status: 'Active', parent: mid.id });
    return { top, url: `/api/dcim/locations/${leaf.id}/` };
  }

  /** Statements reading the chain (counted at the store) while `fn` runs. */
  async function chainReads(fn: () => Promise<void>): Promise<number> {
    const store = t.app.services.store as unknown as { readChain: (...args: unknown[]) => Promise<unknown> };
    const real = store.readChain;
    let chains = 0;
    store.readChain = function (...args) {
      chains += 1;
      return real.apply(this, args);
    };
    try {
      await fn();
    } finally {
      store.readChain = real;
    }
    return chains;
  }

  it('should read a location\'s ancestors once while the generation stands and show every write, on either database', async () => {
    const { top, url } = await chainOfThree('Memo');
    let first = { n: 0, body: undefined as any };
    const reads = await chainReads(async () => { first = await statements(url); });
    assert.ok(reads > 0);
    // Held still: on PostgreSQL other test files may write at any moment and move it.
    await withGeneration(t, 'chain', async () => {
      await statements(url);
      let second = { n: 0, body: undefined as any };
      assert.equal(await chainReads(async () => { second = await statements(url); }), 0, 'the second GET in one generation reads no chain');
      assert.equal(second.body.display, 'Memo Top → Memo Mid → Memo Leaf');
      assert.deepEqual(second.body, first.body);
    });
    assert.equal((await t.call('PATCH', `/api/dcim/locations/${top.id}/`, { name: 'Memo Root' })).status, 200);
    assert.equal((await statements(url)).body.display, 'Memo Root → Memo Mid → Memo Leaf');
    assert.equal((await statements(url)).body.display, 'Memo Root → Memo Mid → Memo Leaf');
  });

  it('should show a write another connection commits (PostgreSQL)', { skip: DB_URL.startsWith('postgres') ? false : 'another connection to an in-memory SQLite database is another database' }, async () => {
    const { top, url } = await chainOfThree('Other');
    assert.equal((await statements(url)).body.display, 'Other Top → Other Mid → Other Leaf');
    assert.equal((await statements(url)).body.display, 'Other Top → Other Mid → Other Leaf');
    const other = new pg.Client({ connectionString: t.app.services.dialect.source?.url });
    await other.connect();
    try {
      await other.query('UPDATE dcim_location SET name = $1 WHERE id = $2', ['Other Root', top.id]);
    } finally {
      await other.end();
    }
    assert.equal((await statements(url)).body.display, 'Other Root → Other Mid → Other Leaf');
  });
});
