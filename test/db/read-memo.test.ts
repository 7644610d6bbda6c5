import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { countStatements, create, makeApp } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';

let t: TestApp;

before(async () => {
  t = await makeApp();
  await create(t, '/api/extras/custom-fields/', { label: 'Owner', type: 'text', content_types: ['tenancy.tenant'] });
  await create(t, '/api/tenancy/tenants/', { name: 'acme', custom_fields: { owner: 'ops' } });
});
after(() => t.close());

describe('definitions a read renders with, kept per write generation', () => {
  it('should read the custom field keys once while the generation stands still, on either database', async () => {
    // Other test files move PostgreSQL's generation at any moment: hold it still for this app.
    const dialect = t.app.services.dialect as { writeGeneration: () => Promise<string | null> };
    const real = dialect.writeGeneration;
    dialect.writeGeneration = async () => 'still';
    try {
      const first = await countStatements(t, '/api/tenancy/tenants/');
      const second = await countStatements(t, '/api/tenancy/tenants/');
      assert.equal(second, first - 1, `the second GET should skip the custom field keys: ${first} then ${second} statements`);
      const res = await t.call('GET', '/api/tenancy/tenants/?name=acme', undefined, { headers: { 'cache-control': 'no-cache' } });
      assert.deepEqual(res.body.results[0].custom_fields, { owner: 'ops' });
    } finally {
      dialect.writeGeneration = real;
    }
  });
});
