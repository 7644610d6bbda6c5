import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { DB_URL, makeApp } from '../helpers/app.js';
import { loadConfig } from '../../src/core/config.js';
import { PermanentError, QueueRunner, enqueue, queueDepth, queueItem } from '../../src/queue/index.js';
import { pgBossSchema } from '../../src/queue/pg-boss.js';
import type { TestApp } from '../helpers/app.js';
import { dropPgBossSchema } from '../helpers/worker-process.js';

// The pg-boss engine (QUEUE_ENGINE=pg-boss) behind the same contract as the database engine (queue.test.ts).
const onPostgres = DB_URL.startsWith('postgres');
let t: TestApp;
let runner: QueueRunner;
const seen: { payload: any; attempt: number }[] = [];
const waiters = new Set<() => void>();

/** Resolves when the row `id` is done or failed (woken by the handler below, else looked at every 100 ms). */
async function settled(id: number): Promise<{ state: string; attempts: number; last_error: string | null; result: unknown }> {
  for (;;) {
    const item = await queueItem(t.app.services, id);
    if (item && (item.state === 'done' || item.state === 'failed')) return item;
    await new Promise<void>((resolve) => { waiters.add(resolve); setTimeout(resolve, 100); });
  }
}

before(async () => {
  if (!onPostgres) return;
  t = await makeApp({ queue: { ...loadConfig({}).queue, pollMs: 200, leaseMs: 5000, engine: 'pg-boss', stopGraceMs: 1000 } });
  runner = new QueueRunner(t.app.services, { concurrency: 4, pollMs: 200, leaseMs: 5000 });
  runner.handle('test-flaky', async (payload: { failures: number; permanent?: boolean }, ctx) => {
    seen.push({ payload, attempt: ctx.attempt });
    for (const wake of waiters) wake();
    waiters.clear();
    if (payload.permanent) throw new PermanentError('no use retrying');
    if (ctx.attempt <= payload.failures) throw new Error(`failure ${ctx.attempt}`);
    return { ok: ctx.attempt };
  });
  await runner.start();
});

after(async () => {
  if (!onPostgres) return;
  await runner.stop();
  const schema = pgBossSchema(t.app.services);
  await t.close();
  // The test's schema is dropped by the helper; pg-boss's schema beside it goes here.
  await dropPgBossSchema(DB_URL, schema);
});

test('pg-boss: a handler that fails is retried until it succeeds; ids are numbers in enqueue order', { skip: !onPostgres }, async () => {
  const first = await enqueue(t.app.services, 'test-flaky', { failures: 1 }, { backoffMs: 1000, maxAttempts: 5 });
  const second = await enqueue(t.app.services, 'test-flaky', { failures: 0 });
  assert.ok(second > first);
  const item = await settled(first);
  assert.equal(item.state, 'done');
  assert.equal(item.attempts, 2);
  assert.deepEqual(item.result, { ok: 2 });
  assert.equal((await settled(second)).state, 'done');
});

test('pg-boss: attempts are bounded and the last error kept; a permanent error ends the row at once', { skip: !onPostgres }, async () => {
  const bounded = await enqueue(t.app.services, 'test-flaky', { failures: 99 }, { backoffMs: 0, maxAttempts: 3 });
  const permanent = await enqueue(t.app.services, 'test-flaky', { failures: 0, permanent: true }, { maxAttempts: 5 });
  const failed = await settled(bounded);
  assert.equal(failed.state, 'failed');
  assert.equal(failed.attempts, 3);
  assert.equal(failed.last_error, 'failure 3');
  const ended = await settled(permanent);
  assert.equal(ended.state, 'failed');
  assert.equal(ended.attempts, 1);
});

test('pg-boss: rows of one group run one at a time, in enqueue order, also across a retry', { skip: !onPostgres }, async () => {
  seen.length = 0;
  const ids: number[] = [];
  // One transaction: pg-boss gives all its jobs one creation time; the order comes from the ids.
  await t.app.services.dialect.db.transaction().execute(async (trx) => {
    for (let i = 0; i < 5; i += 1) ids.push(await enqueue(t.app.services, 'test-flaky', { failures: i === 0 ? 1 : 0, n: i }, { exec: trx, backoffMs: 1000, groupKey: 'g' }));
  });
  for (const id of ids) await settled(id);
  assert.deepEqual(seen.map((s) => s.payload.n), [0, 0, 1, 2, 3, 4]);
});

test('pg-boss: a job enqueued in a transaction that rolls back never exists; depth counts waiting jobs', { skip: !onPostgres }, async () => {
  let id = 0;
  await assert.rejects(t.app.services.dialect.db.transaction().execute(async (trx) => {
    id = await enqueue(t.app.services, 'test-flaky', { failures: 0 }, { exec: trx });
    throw new Error('roll back');
  }), /roll back/);
  assert.equal(await queueItem(t.app.services, id), undefined);
  const later = await enqueue(t.app.services, 'test-never', {}, { delayMs: 3600_000 });
  const depth = await queueDepth(t.app.services);
  assert.ok(depth.queued >= 1, JSON.stringify(depth));
  assert.equal((await queueItem(t.app.services, later))?.state, 'queued');
  const rows = await sql<{ n: string }>`SELECT count(*) AS "n" FROM ${sql.table(`${pgBossSchema(t.app.services)}.job`)} WHERE "name" = 'test-never'`.execute(t.app.services.dialect.db);
  assert.equal(Number(rows.rows[0].n), 1);
});
