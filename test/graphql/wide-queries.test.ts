import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../helpers/app.js';
import { countTurns } from '../helpers/loop-turns.js';
import type { TestApp } from '../helpers/app.js';

/**
 * A query of many lists (aliases) lets the service answer other requests while it runs: its
 * reads are let in a few at a time, on turns of the event loop (resolve/read-gate.ts). Before,
 * on SQLite, 2 000 aliased lists ran back to back in one microtask queue and held every other
 * request for the 30 s they took.
 */
let t: TestApp;

before(async () => {
  t = await makeApp();
  await create(t, '/api/tenancy/tenants/', Array.from({ length: 30 }, (_, i) => ({ name: `tenant-${String(i).padStart(2, '0')}` })));
});
after(() => t.close());

describe('a GraphQL query of many lists', () => {
  it('should let the event loop turn between its reads, and answer them all', async () => {
    const aliases = Array.from({ length: 300 }, (_, i) => `a${i}: tenants(limit: 1, offset: ${i % 30}) { name }`).join(' ');
    const { result: res, turns } = await countTurns(() => t.call('POST', '/api/graphql/', { query: `{ ${aliases} }` }));
    assert.equal(res.status, 200);
    assert.equal(res.body.errors, undefined);
    assert.deepEqual(res.body.data.a31, [{ name: 'tenant-01' }]);
    assert.equal(Object.keys(res.body.data).length, 300);
    // At least one turn per few reads (4 are let in at once).
    assert.ok(turns >= 300 / 4, `${turns} turns of the event loop`);
  });
});
