import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeApp } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';

/**
 * Writes racing in one process (on PostgreSQL each on its own pooled connection): the checks
 * before a write cannot see a concurrent writer's uncommitted row, so the loser meets the unique
 * index; it runs again and answers as the reference would (a 400 naming the field), never a 500.
 */
let t: TestApp;

before(async () => {
  t = await makeApp();
});
after(() => t.close());

describe('POST /api/tenancy/tenants/ with one name from six requests at once', () => {
  it('should create it once and refuse the others with the uniqueness message', { timeout: 60_000 }, async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => t.call('POST', '/api/tenancy/tenants/', { name: 'same' })));
    assert.deepEqual(answers.map((a) => a.status).sort(), [201, 400, 400, 400, 400, 400]);
    for (const refused of answers.filter((a) => a.status === 400)) assert.deepEqual(refused.body, { name: ['Tenant with this name already exists.'] });
    assert.equal((await t.call('GET', '/api/tenancy/tenants/?name=same')).body.count, 1);
  });
});
