import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeJobsApp } from './helpers.js';
import { toIsoMicro } from '../../src/core/fields/scalar.js';
import { failOverdueRuns } from '../../src/jobs/overdue.js';
import { createJobResult, markStarted } from '../../src/jobs/results.js';
import type { JobsTestApp } from './helpers.js';

let t: JobsTestApp;
before(async () => { t = await makeJobsApp(); });
after(async () => { await t.close(); });

describe('runs left STARTED by lost workers', () => {
  it('should fail a run STARTED past its hard time limit and a lease, and leave a recent one alone', async () => {
    const { services } = t.app;
    const api = await t.job('Echo');
    const job = (await services.store.byId(services.dialect.db, services.registry.get('extras.job'), api.id))!;
    const make = async (startedAgoMs: number) => {
      const result = await createJobResult(services, services.dialect.db, { job, userId: null, data: {}, queue: 'default' });
      assert.ok(await markStarted(services, result.id, 'worker-that-died'));
      await services.dialect.db.updateTable('extras_jobresult').set({ date_started: toIsoMicro(new Date(Date.now() - startedAgoMs)) }).where('id', '=', result.id).execute();
      return result.id;
    };
    const limitMs = (Number(job.time_limit) || services.config.jobs.timeLimit) * 1000 + services.config.queue.leaseMs + 60_000;
    const lost = await make(limitMs + 5_000);
    const recent = await make(1_000);
    assert.deepEqual(await failOverdueRuns(services), [lost]);
    const read = async (id: string) => (await t.call('GET', `/api/extras/job-results/${id}/`)).body;
    const failed = await read(lost);
    assert.deepEqual([failed.status.value, failed.result.exc_type], ['FAILURE', 'WorkerLostError']);
    assert.ok(failed.date_done);
    assert.equal((await read(recent)).status.value, 'STARTED');
  });
});
