import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeApp } from '../helpers/app.js';
import { loadConfig } from '../../src/core/config.js';
import { publishedListeners } from '../../src/events/publisher.js';
import { pruneOutbox, pruneTuning, prunedListeners } from '../../src/events/outbox-prune.js';
import type { TestApp } from '../helpers/app.js';

// Published outbox rows are pruned after OUTBOX_RETENTION_MS (here 300 ms, looked at every poll).
let t: TestApp;

before(async () => {
  t = await makeApp({ queue: { ...loadConfig({}).queue, pollMs: 100, outboxRetentionMs: 300 } });
});

after(async () => {
  await t.close();
});

async function outboxRows(): Promise<{ seq: number | null }[]> {
  const rows = await t.app.services.dialect.db.selectFrom('inventory_outbox').select(['seq']).orderBy('id').execute();
  return rows.map((r) => ({ seq: r.seq === null ? null : Number(r.seq) }));
}

/** Resolves after the next prune that removed something. */
function nextPrune(): Promise<number> {
  return new Promise((resolve) => {
    const listener = (pruned: number) => {
      if (pruned === 0) return;
      prunedListeners(t.app.services).delete(listener);
      resolve(pruned);
    };
    prunedListeners(t.app.services).add(listener);
  });
}

test('published outbox rows past their retention are pruned; the newest stays and publication numbers keep growing', async () => {
  const published = new Promise<void>((resolve) => publishedListeners(t.app.services).add(resolve));
  const pruned = nextPrune();
  const made = await t.call('POST', '/api/dcim/manufacturers/', [{ name: 'a' }, { name: 'b' }, { name: 'c' }]);
  assert.equal(made.status, 201);
  await published;
  // The newest row is never pruned, so its seq can be read at any time.
  const newest = Math.max(...(await outboxRows()).map((r) => r.seq!));
  assert.equal(await pruned, 2);
  assert.deepEqual(await outboxRows(), [{ seq: newest }]);
  const republished = new Promise<void>((resolve) => publishedListeners(t.app.services).add(resolve));
  assert.equal((await t.call('POST', '/api/dcim/manufacturers/', { name: 'd' })).status, 201);
  await republished;
  const after = await outboxRows();
  assert.ok(after.every((r) => r.seq !== null));
  assert.ok(Math.max(...after.map((r) => r.seq!)) > newest);
});

test('a prune deletes in batches (pruneTuning.batch rows a statement) until none is left but the newest', async () => {
  const kept = await makeApp({ queue: { ...loadConfig({}).queue, pollMs: 100, outboxRetentionMs: 3_600_000 } });
  const batch = pruneTuning.batch;
  try {
    const published = new Promise<void>((resolve) => publishedListeners(kept.app.services).add(resolve));
    assert.equal((await kept.call('POST', '/api/dcim/manufacturers/', ['p', 'q', 'r', 's', 't', 'u'].map((name) => ({ name })))).status, 201);
    await published;
    const before = await kept.app.services.dialect.db.selectFrom('inventory_outbox').select(['id']).execute();
    assert.equal(before.length, 6);
    pruneTuning.batch = 2;
    const statements = kept.app.services.dialect.queryCount();
    assert.equal(await pruneOutbox(kept.app.services, Date.now() + 1000), 5);
    // 2 + 2 + 1 (other statements of the service may only add to the count).
    assert.ok(kept.app.services.dialect.queryCount() - statements >= 3);
    const left = await kept.app.services.dialect.db.selectFrom('inventory_outbox').select(['seq']).execute();
    assert.equal(left.length, 1);
    assert.notEqual(left[0].seq, null);
  } finally {
    pruneTuning.batch = batch;
    await kept.close();
  }
});
