import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeApp, create } from '../helpers/app.js';
import { PermanentError, QueueRunner, enqueue, queueItem } from '../../src/queue/index.js';
import { publishedListeners } from '../../src/events/publisher.js';
import type { TestApp } from '../helpers/app.js';

let t: TestApp;
let runner: QueueRunner;
const seen: { payload: unknown; attempt: number }[] = [];
const finished = new Map<number, () => void>();

/** Resolves when the row `id` is done or failed (the runner reports through the handler below). */
async function settled(id: number): Promise<{ state: string; attempts: number; last_error: string | null; result: unknown }> {
  for (;;) {
    const item = await queueItem(t.app.services, id);
    if (item && (item.state === 'done' || item.state === 'failed')) return item;
    await new Promise<void>((resolve) => { finished.set(id, resolve); setTimeout(resolve, 50); });
  }
}

before(async () => {
  t = await makeApp();
  runner = new QueueRunner(t.app.services, { concurrency: 2, pollMs: 100, leaseMs: 10_000 });
  runner.handle('test.flaky', async (payload: { failures: number; permanent?: boolean }, ctx) => {
    seen.push({ payload, attempt: ctx.attempt });
    if (payload.permanent) throw new PermanentError('no use retrying');
    if (ctx.attempt <= payload.failures) throw new Error(`failure ${ctx.attempt}`);
    return { ok: ctx.attempt };
  });
  await runner.start();
});

after(async () => {
  await runner.stop();
  await t.close();
});

test('a handler that fails is retried with backoff until it succeeds', async () => {
  const id = await enqueue(t.app.services, 'test.flaky', { failures: 2 }, { backoffMs: 10, maxAttempts: 5 });
  const item = await settled(id);
  assert.equal(item.state, 'done');
  assert.equal(item.attempts, 3);
  assert.deepEqual(item.result, { ok: 3 });
});

test('attempts are bounded; the last error is kept', async () => {
  const id = await enqueue(t.app.services, 'test.flaky', { failures: 99 }, { backoffMs: 1, maxAttempts: 3 });
  const item = await settled(id);
  assert.equal(item.state, 'failed');
  assert.equal(item.attempts, 3);
  assert.equal(item.last_error, 'failure 3');
});

test('a permanent error ends the row at once', async () => {
  const id = await enqueue(t.app.services, 'test.flaky', { failures: 0, permanent: true }, { maxAttempts: 5 });
  const item = await settled(id);
  assert.equal(item.state, 'failed');
  assert.equal(item.attempts, 1);
});

test('rows of one group run one at a time, in order', async () => {
  seen.length = 0;
  const ids = [];
  for (let i = 0; i < 4; i += 1) ids.push(await enqueue(t.app.services, 'test.flaky', { failures: i === 0 ? 1 : 0, n: i }, { backoffMs: 20, groupKey: 'g' }));
  for (const id of ids) await settled(id);
  assert.deepEqual(seen.map((s) => (s.payload as { n: number }).n), [0, 0, 1, 2, 3]);
});

test('a write records one outbox event per change record, published in order; /api/status/ counts live workers', async () => {
  const published = new Promise<void>((resolve) => publishedListeners(t.app.services).add(resolve));
  const created = await t.call('POST', '/api/dcim/manufacturers/', [{ name: 'a' }, { name: 'b' }]);
  assert.equal(created.status, 201, created.raw);
  await published;
  const db = t.app.services.dialect.db;
  const rows = await db.selectFrom('inventory_outbox').select(['change_id', 'seq']).orderBy('seq').execute();
  const changes = await t.call('GET', '/api/extras/object-changes/');
  assert.deepEqual(rows.map((r) => String(r.change_id)).sort(), changes.body.results.map((c: { id: string }) => c.id).sort());
  assert.ok(rows.every((r) => r.seq !== null));
  const status = await t.call('GET', '/api/status/');
  assert.equal(status.body['celery-workers-running'], 2);
});

test('a write that rolls back records no event', async () => {
  const before = await t.app.services.dialect.db.selectFrom('inventory_outbox').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const bad = await t.call('POST', '/api/dcim/manufacturers/', [{ name: 'c' }, { name: 'c' }]);
  assert.equal(bad.status, 400);
  const after = await t.app.services.dialect.db.selectFrom('inventory_outbox').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  assert.equal(Number(after?.n), Number(before?.n));
});
