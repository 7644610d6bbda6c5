import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { DB_URL } from '../helpers/app.js';
import { makeJobsApp } from '../jobs/helpers.js';
import { loadConfig } from '../../src/core/config.js';
import { startBackground } from '../../src/background.js';
import { PermanentError, QueueRunner, enqueue, heartbeatInterval, queueItem } from '../../src/queue/index.js';
import { jobIdOf, pgBossBackend, pgBossSchema } from '../../src/queue/pg-boss.js';
import { DeliveryRecord } from '../../src/events/webhooks/record.js';
import { WEBHOOK_KIND } from '../../src/events/webhooks/deliver.js';
import type { GiveUpContext } from '../../src/queue/index.js';
import type { JobsTestApp } from '../jobs/helpers.js';
import type { Config } from '../../src/core/config.js';
import { dropPgBossSchema } from '../helpers/worker-process.js';

// A queue row that ends failed for good tells its kind (onGiveUp): jobs and webhook deliveries
// never stay STARTED once the queue gave their row up. And a lease too short to renew is refused.
const onPostgres = DB_URL.startsWith('postgres');
const LEASE_MS = 3000;

function queueConfig(overrides: Partial<Config['queue']> = {}): Config['queue'] {
  return { ...loadConfig({}).queue, embedded: false, pollMs: 200, leaseMs: LEASE_MS, stopGraceMs: 0, ...overrides };
}

/** Polls `read` until `done` says yes (the runner's work in the background). */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let value = await read(); ; value = await read()) {
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A live worker as the API counts them (the run endpoint asks for one), while no runner claims. */
async function fakeLiveWorker(t: JobsTestApp): Promise<void> {
  await t.app.services.dialect.db.insertInto('inventory_workers').values({ id: `test:${randomUUID()}`, hostname: 'test', pid: 1, started: Date.now(), heartbeat: Date.now() + 3600_000 }).execute();
}

/** Leaves a table-engine row as a worker that died in its last attempt leaves it: running, its lease out. */
async function deadInLastAttempt(t: JobsTestApp, id: number): Promise<void> {
  await t.app.services.dialect.db.updateTable('inventory_queue')
    .set((eb) => ({ state: 'running', attempts: eb.ref('max_attempts'), locked_by: 'dead-worker', locked_until: Date.now() - 1000 })).where('id', '=', id).execute();
}

/** Runs Echo through the API with no runner claiming; returns the job result id and its queue row. */
async function runEchoUnclaimed(t: JobsTestApp): Promise<{ resultId: string; queueId: number }> {
  await t.job('Echo');
  const res = await t.call('POST', '/api/extras/jobs/Echo/run/', { data: { flag: 'true', many: ['b'] } });
  assert.equal(res.status, 201, res.raw);
  const resultId = String(res.body.job_result.id);
  const rows = await sql<{ id: number; payload: string }>`SELECT "id", "payload" FROM "inventory_queue" WHERE "kind" = 'job' ORDER BY "id" DESC`.execute(t.app.services.dialect.db);
  const row = rows.rows.find((r) => String(r.payload).includes(resultId));
  assert.ok(row, 'the run has a queue row');
  return { resultId, queueId: Number(row.id) };
}

async function resultOf(t: JobsTestApp, id: string): Promise<any> {
  return (await t.call('GET', `/api/extras/job-results/${id}/`)).body;
}

describe('the give-up hook of a queue kind (database engine)', () => {
  let t: JobsTestApp;
  let runner: QueueRunner;
  const givenUp: { payload: any; ctx: GiveUpContext }[] = [];
  const attempts: number[] = [];
  let hookFailures = 0;

  before(async () => {
    t = await makeJobsApp({ queue: queueConfig() });
    await fakeLiveWorker(t);
    runner = new QueueRunner(t.app.services, { concurrency: 2, pollMs: 200, leaseMs: LEASE_MS });
    runner.handle('test-doomed', async (payload: { permanent?: boolean }, ctx) => {
      attempts.push(ctx.id);
      throw payload.permanent ? new PermanentError('no use retrying') : new Error(`failure ${ctx.attempt}`);
    }, {
      onGiveUp: async (payload: { hookFails?: number }, ctx) => {
        if ((payload.hookFails ?? 0) > hookFailures) {
          hookFailures += 1;
          throw new Error('hook down');
        }
        givenUp.push({ payload, ctx: { ...ctx, services: undefined as never } });
      },
    });
    await runner.start();
  });

  after(async () => {
    await runner.stop();
    await t.close();
  });

  const hookCalls = (id: number) => givenUp.filter((g) => g.ctx.id === id);

  test('a handler that always throws: the hook is told once, with the last error, then the row is failed', async () => {
    const id = await enqueue(t.app.services, 'test-doomed', { n: 1 }, { maxAttempts: 3, backoffMs: 1 });
    const item = await until(() => queueItem(t.app.services, id), (i) => i?.state === 'failed');
    const calls = hookCalls(id);
    assert.equal(calls.length, 1);
    assert.deepEqual(calls[0].payload, { n: 1 });
    assert.equal(calls[0].ctx.reason, 'failure 3');
    assert.equal(calls[0].ctx.attempts, 3);
    assert.equal(calls[0].ctx.maxAttempts, 3);
    assert.equal(item!.attempts, 3);
    assert.equal(attempts.filter((a) => a === id).length, 3);
  });

  test('a permanent error gives the row up at its first attempt', async () => {
    const id = await enqueue(t.app.services, 'test-doomed', { permanent: true }, { maxAttempts: 5 });
    await until(() => queueItem(t.app.services, id), (i) => i?.state === 'failed');
    assert.equal(hookCalls(id).length, 1);
    assert.equal(hookCalls(id)[0].ctx.reason, 'no use retrying');
  });

  test('a row whose worker died in its last attempt is given up by the next runner, the hook told', async () => {
    await runner.stop();
    const id = await enqueue(t.app.services, 'test-doomed', { dead: true }, { maxAttempts: 2 });
    await deadInLastAttempt(t, id);
    runner = new QueueRunner(t.app.services, { concurrency: 2, pollMs: 200, leaseMs: LEASE_MS });
    runner.handle('test-doomed', async () => { attempts.push(id); }, { onGiveUp: async (payload, ctx) => { givenUp.push({ payload, ctx }); } });
    await runner.start();
    const item = await until(() => queueItem(t.app.services, id), (i) => i?.state === 'failed');
    assert.equal(attempts.filter((a) => a === id).length, 0, 'no attempt beyond the last');
    assert.equal(hookCalls(id).length, 1);
    assert.match(hookCalls(id)[0].ctx.reason, /^Attempts spent: the worker running attempt 2 of 2 stopped before it ended\.$/);
    assert.equal(item!.last_error, hookCalls(id)[0].ctx.reason);
  });

  test('a hook that throws leaves the row leased: it is given up again once the lease runs out (at least once)', async () => {
    await runner.stop();
    runner = new QueueRunner(t.app.services, { concurrency: 2, pollMs: 200, leaseMs: LEASE_MS });
    runner.handle('test-doomed', async () => { throw new PermanentError('gone'); }, {
      onGiveUp: async (payload: { hookFails?: number }, ctx) => {
        if ((payload.hookFails ?? 0) > hookFailures) {
          hookFailures += 1;
          throw new Error('hook down');
        }
        givenUp.push({ payload, ctx });
      },
    });
    await runner.start();
    const id = await enqueue(t.app.services, 'test-doomed', { hookFails: 1 }, { maxAttempts: 1 });
    const item = await until(() => queueItem(t.app.services, id), (i) => i?.state === 'failed');
    assert.equal(hookFailures, 1);
    assert.equal(hookCalls(id).length, 1);
    assert.equal(item!.attempts, 2, 'the first give-up attempt, then the one after the lease');
  });
});

describe('jobs and webhook deliveries whose queue row is given up', () => {
  let t: JobsTestApp;

  before(async () => {
    t = await makeJobsApp({ queue: queueConfig() });
    await fakeLiveWorker(t);
  });

  after(async () => { await t.close(); });

  test('a job whose worker died in its last attempt ends FAILURE (WorkerLostError) at once, not after the overdue guard', async () => {
    const { resultId, queueId } = await runEchoUnclaimed(t);
    await t.app.services.dialect.db.updateTable('extras_jobresult').set({ status: 'STARTED' }).where('id', '=', resultId).execute();
    await deadInLastAttempt(t, queueId);
    const background = await startBackground(t.app.services);
    try {
      const ended = await until(() => resultOf(t, resultId), (r) => r.status.value !== 'STARTED');
      assert.equal(ended.status.value, 'FAILURE');
      assert.equal(ended.result.exc_type, 'WorkerLostError');
      assert.match(ended.result.exc_message, /^Attempts spent: .* \(queue row \d+, 2 of 2 attempts\)$/);
      assert.match(ended.traceback, /^WorkerLostError: Attempts spent/);
      assert.ok(ended.date_done);
      assert.equal((await queueItem(t.app.services, queueId))?.state, 'failed');
    } finally {
      await background.stop();
    }
  });

  test('a webhook delivery whose worker died in its last attempt ends FAILURE, its log naming the attempts', async () => {
    const services = t.app.services;
    const delivery = { webhook: randomUUID(), change: randomUUID(), timestamp: new Date().toISOString() };
    const id = await enqueue(services, WEBHOOK_KIND, delivery, { maxAttempts: 3 });
    const record = new DeliveryRecord(services, id, 'gone', { webhook: delivery.webhook, change: delivery.change });
    await record.started('dead-worker');
    await deadInLastAttempt(t, id);
    const background = await startBackground(services);
    try {
      const ended = await until(() => resultOf(t, record.id), (r) => r.status.value !== 'STARTED');
      assert.equal(ended.status.value, 'FAILURE');
      assert.match(ended.result, /^Attempts spent/);
      const logs = (await t.call('GET', `/api/extras/job-logs/?job_result=${record.id}`)).body.results;
      assert.ok(logs.some((l: any) => l.log_level.value === 'failure' && /^Gave up after 3 of 3 attempts: Attempts spent/.test(l.message)), JSON.stringify(logs));
    } finally {
      await background.stop();
    }
  });
});

describe('the pg-boss engine gives up a dead worker\'s job through the runner', { skip: !onPostgres }, () => {
  let t: JobsTestApp;

  before(async () => {
    t = await makeJobsApp({ queue: queueConfig({ engine: 'pg-boss' }) });
    await fakeLiveWorker(t);
    // The job kind's pg-boss queue, as a runner readies it before any transaction enqueues (none runs yet).
    await pgBossBackend(t.app.services).prepare!(['job']);
  });

  after(async () => {
    const schema = pgBossSchema(t.app.services);
    await t.close();
    await dropPgBossSchema(DB_URL, schema);
  });

  test('a job expired in its last attempt is retried into a give-up: the result ends FAILURE (WorkerLostError)', async () => {
    await t.job('Echo');
    const res = await t.call('POST', '/api/extras/jobs/Echo/run/', { data: { flag: 'true', many: ['b'] } });
    assert.equal(res.status, 201, res.raw);
    const resultId = String(res.body.job_result.id);
    const services = t.app.services;
    await services.dialect.db.updateTable('extras_jobresult').set({ status: 'STARTED' }).where('id', '=', resultId).execute();
    // As pg-boss holds a job whose worker died in its last attempt: active, started long ago, expired.
    const job = sql.table(`${pgBossSchema(services)}.job`);
    const updated = await sql`UPDATE ${job} SET "state" = 'active', "retry_count" = "retry_limit" - 1, "started_on" = now() - interval '1 hour', "expire_in" = interval '1 second'
      WHERE "name" = 'job' AND "data"::text LIKE ${`%${resultId}%`} RETURNING "id"`.execute(services.dialect.db);
    assert.equal(updated.rows.length, 1);
    const background = await startBackground(services);
    try {
      const ended = await until(() => resultOf(t, resultId), (r) => r.status.value !== 'STARTED');
      assert.equal(ended.status.value, 'FAILURE');
      assert.equal(ended.result.exc_type, 'WorkerLostError');
      assert.match(ended.result.exc_message, /^Attempts spent: .*2 of 2 attempts\)$/);
      const id = parseInt(String((updated.rows[0] as { id: string }).id).slice(24), 16);
      assert.equal(jobIdOf(id), String((updated.rows[0] as { id: string }).id));
      await until(() => queueItem(services, id), (i) => i?.state === 'failed');
    } finally {
      await background.stop();
    }
  });
});

describe('queue leases and heartbeats', () => {
  test('a lease below 3 s is refused at startup, naming the setting', () => {
    assert.throws(() => loadConfig({ QUEUE_LEASE_MS: '2999' }), /^Error: QUEUE_LEASE_MS must be at least 3000 ms \(a worker renews its leases every third of it\), got 2999$/);
    assert.equal(loadConfig({ QUEUE_LEASE_MS: '3000' }).queue.leaseMs, 3000);
  });

  test('the heartbeat is a third of a lease shorter than 30 s, else 10 s', () => {
    assert.equal(heartbeatInterval(3000), 1000);
    assert.equal(heartbeatInterval(12_000), 4000);
    assert.equal(heartbeatInterval(60_000), 10_000);
  });

  test('a runner refuses a lease too short to renew', async () => {
    const t = await makeJobsApp({ queue: queueConfig() });
    try {
      assert.throws(() => new QueueRunner(t.app.services, { concurrency: 1, pollMs: 200, leaseMs: 1000 }), /leaseMs must be at least 3000 ms/);
    } finally {
      await t.close();
    }
  });

  test('with a 3 s lease, a row running past its first lease is renewed by its live worker and runs once', async () => {
    const t = await makeJobsApp({ queue: queueConfig() });
    const runner = new QueueRunner(t.app.services, { concurrency: 2, pollMs: 100, leaseMs: LEASE_MS });
    const runs: number[] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => { release = resolve; });
    runner.handle('test-long', async (_payload, ctx) => {
      runs.push(ctx.attempt);
      await released;
      return { attempt: ctx.attempt };
    });
    try {
      await runner.start();
      const id = await enqueue(t.app.services, 'test-long', {});
      const lease = () => t.app.services.dialect.db.selectFrom('inventory_queue').select(['locked_until', 'state']).where('id', '=', id).executeTakeFirst();
      const first = await until(lease, (r) => r?.state === 'running');
      const firstLeaseEnd = Number(first!.locked_until);
      // Past the first lease's end (and a claim look after it), the row is still this worker's, renewed.
      const renewed = await until(lease, (r) => Number(r!.locked_until) > firstLeaseEnd + 1000 && Date.now() > firstLeaseEnd + 300);
      assert.equal(renewed!.state, 'running');
      release();
      const item = await until(() => queueItem(t.app.services, id), (i) => i?.state === 'done');
      assert.deepEqual(runs, [1]);
      assert.equal(item!.attempts, 1);
    } finally {
      release();
      await runner.stop();
      await t.close();
    }
  });
});
