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
