import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeJobsApp } from './helpers.js';
import { runnerFor } from '../../src/jobs/dispatch.js';
import { until } from './worker-processes.js';
import type { JobsTestApp } from './helpers.js';

/** JOBS_THREAD_IDLE_MS: an idle job thread ends (its memory goes back), and the next job starts a new one. */
describe('job threads left idle', () => {
  let t: JobsTestApp;
  before(async () => { t = await makeJobsApp({ jobs: { threadIdleMs: 200 } }); });
  after(async () => { await t.close(); });

  async function runMakeTags(names: string) {
    const job = await t.job('Make Tags');
    const res = await t.call('POST', `/api/extras/jobs/${job.id}/run/`, { data: { names, color: 'ff0000' } });
    assert.equal(res.status, 201, res.raw);
    await t.idle();
    return (await t.call('GET', `/api/extras/job-results/${res.body.job_result.id}/`)).body;
  }

  it('should end the thread after JOBS_THREAD_IDLE_MS and run the next job on a new one', { timeout: 60_000 }, async (ctx) => {
    const runner = runnerFor(t.app.services);
    if (!runner.threaded) return ctx.skip('jobs run on the calling thread on this database');
    assert.equal((await runMakeTags('idle-a')).status.value, 'SUCCESS');
    assert.equal(runner.threadCount, 1);
    await until(async () => runner.threadCount, (n) => n === 0);
    const second = await runMakeTags('idle-b');
    assert.equal(second.status.value, 'SUCCESS');
    assert.equal((await t.call('GET', '/api/extras/tags/?name=idle-b')).body.count, 1);
  });
});
