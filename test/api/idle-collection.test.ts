import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeApp } from '../helpers/app.js';
import { idleCollections } from '../../src/api/plugins/idle-collection.js';
import { until } from '../jobs/worker-processes.js';
import type { TestApp } from '../helpers/app.js';

/** IDLE_GC_MS: after a burst that grew the heap, a quiet moment collects it (and the memory goes back). */
describe('collection after a quiet moment', () => {
  let t: TestApp;
  before(async () => { t = await makeApp({ idleGcMs: 100 }); });
  after(async () => { await t.close(); });

  it('should run one full collection once requests stop after the heap grew', { timeout: 60_000 }, async () => {
    const before = idleCollections();
    // About 40 MB of objects held across a request, then dropped: the heap has grown by more than 16 MB.
    let held: unknown[] | null = Array.from({ length: 400_000 }, (_, i) => ({ i, name: `object-${i}` }));
    assert.equal((await t.call('GET', '/api/tenancy/tenants/')).status, 200);
    assert.equal(held.length, 400_000);
    held = null;
    await until(async () => idleCollections(), (n) => n > before);
    assert.equal((await t.call('GET', '/api/tenancy/tenants/')).status, 200);
  });
});
