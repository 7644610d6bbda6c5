import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeJobsApp } from './helpers.js';
import { loadConfig } from '../../src/core/config.js';
import { JOB_ATTEMPTS, JOB_KIND, expectRun } from '../../src/jobs/dispatch.js';
import { createJobResult, markStarted } from '../../src/jobs/results.js';
import type { JobsTestApp } from './helpers.js';

describe('jobs on the queue', () => {
  let t: JobsTestApp;
  before(async () => { t = await makeJobsApp(); });
  after(async () => { await t.close(); });

  it('should fail a run that a dead worker left STARTED when its queue row is claimed again', async () => {
    const { services } = t.app;
    const api = await t.job('Echo');
    const job = (await services.store.byId(services.dialect.db, services.registry.get('extras.job'), api.id))!;
    const result = await createJobResult(services, services.dialect.db, { job, userId: null, data: {}, queue: 'default' });
    assert.ok(await markStarted(services, result.id, 'worker-that-died'));
    // The dead worker's row: running, its lease run out, one attempt made.
    await services.dialect.db.insertInto('inventory_queue').values({
      kind: JOB_KIND, payload: JSON.stringify({ jobResultId: result.id, data: {}, baseUrl: '', timeLimit: 60 }), group_key: null, state: 'running',
      attempts: 1, max_attempts: JOB_ATTEMPTS, backoff_ms: 0, run_after: Date.now() - 60_000, locked_by: 'worker-that-died', locked_until: Date.now() - 1000, created: Date.now() - 60_000,
    }).execute();
    expectRun(services, result.id);
    for (const wake of services.committed) wake();
    await t.idle();
    const after = (await t.call('GET', `/api/extras/job-results/${result.id}/`)).body;
    assert.equal(after.status.value, 'FAILURE');
    assert.equal(after.result.exc_type, 'WorkerLostError');
    assert.ok(after.date_done);
  });
});

describe('jobs without any worker', () => {
  let t: JobsTestApp;
  before(async () => { t = await makeJobsApp({ queue: { ...loadConfig({}).queue, embedded: false } }); });
  after(async () => { await t.close(); });

  it('should answer 503 as the reference without celery workers', async () => {
    const job = await t.job('Echo');
    const res = await t.call('POST', `/api/extras/jobs/${job.id}/run/`, {});
    assert.deepEqual([res.status, res.body], [503, { detail: 'Unable to process request: No celery workers running on queue default.' }]);
    assert.equal((await t.call('GET', '/api/extras/job-results/')).body.count, 0);
  });
});
