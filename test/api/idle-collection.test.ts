import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { after, before, describe, it } from 'node:test';
import { makeApp } from '../helpers/app.js';
import { idleCollections, registerIdleCollection } from '../../src/api/plugins/idle-collection.js';
import { until } from '../jobs/worker-processes.js';
import type { FastifyInstance } from 'fastify';
import type { TestApp } from '../helpers/app.js';

/** IDLE_GC_MS: after a burst that grew the heap, a quiet moment collects it (and the memory goes back). */
describe('collection after a quiet moment', () => {
  let t: TestApp;
  before(async () => { t = await makeApp({ idleGcMs: 100 }); });
  after(async () => { await t.close(); });

  it('should run one full collection once requests stop after the heap grew', { timeout: 60_000 }, async () => {
    const before = idleCollections();
    // About 100 MB of objects, held until the collection ran: the heap has surely grown by more
    // than 16 MB when the quiet moment comes (dropped earlier, V8 may collect them on its own first).
    const held: unknown[] = Array.from({ length: 1_000_000 }, (_, i) => ({ i, name: `object-${i}` }));
    assert.equal((await t.call('GET', '/api/tenancy/tenants/')).status, 200);
    await until(async () => idleCollections(), (n) => n > before);
    assert.equal(held.length, 1_000_000);
    assert.equal((await t.call('GET', '/api/tenancy/tenants/')).status, 200);
  });
});

/** The quiet moment waits for requests in flight, and gives the database's spare memory back too. */
describe('collection after a quiet moment, with a request in flight', () => {
  let app: FastifyInstance;
  let release: () => void = () => undefined;
  let released = 0;
  before(async () => {
    app = Fastify();
    registerIdleCollection(app, 100, () => { released += 1; });
    app.get('/hold', async () => {
      await new Promise<void>((resolve) => { release = resolve; });
      return 'done';
    });
  });
  after(async () => { await app.close(); });

  it('should wait for the request, then collect once and release the database memory', { timeout: 60_000 }, async () => {
    const before = idleCollections();
    // About 100 MB of objects, held until the collection ran, so the heap has grown by more than 16 MB.
    const held: unknown[] = Array.from({ length: 1_000_000 }, (_, i) => ({ i, name: `object-${i}` }));
    const response = app.inject('/hold');
    await new Promise((resolve) => setTimeout(resolve, 800));
    assert.equal(idleCollections(), before, 'no collection while a request is in flight');
    assert.equal(released, 0);
    release();
    assert.equal((await response).body, 'done');
    await until(async () => idleCollections(), (n) => n > before);
    assert.equal(released, 1);
    assert.equal(held.length, 1_000_000);
  });
});
