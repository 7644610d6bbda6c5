import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeProcessesApp, stopWorker, until } from './worker-processes.js';
import type { ProcessesApp } from './worker-processes.js';

const ROOT = path.resolve(import.meta.dirname, 'fixtures/tick-root');

describe('a worker process killed in the middle of a job', () => {
  let t: ProcessesApp;
  before(async () => { t = await makeProcessesApp({ root: ROOT }); });
  after(async () => { await t.close(); });

  it('should leave the job result FAILURE (WorkerLostError) once another worker takes its row, never STARTED', async () => {
    // A lease as short as it may be (longer than the queue's 10 s heartbeat, or a live worker
    // would take its own rows again): the killed worker's row is free to claim soon after it died.
    const first = await t.startWorker({ QUEUE_LEASE_MS: '12000', QUEUE_POLL_MS: '200' });
    const job = (await t.call('GET', '/api/extras/jobs/?name=Linger')).body.results[0];
    assert.equal((await t.call('PATCH', `/api/extras/jobs/${job.id}/`, { enabled: true })).status, 200);
    const res = await t.call('POST', `/api/extras/jobs/${job.id}/run/`, { data: {} });
    assert.equal(res.status, 201, res.raw);
    const result = async () => (await t.call('GET', `/api/extras/job-results/${res.body.job_result.id}/`)).body;
    await until(result, (r) => r.status.value === 'STARTED');
    await stopWorker(first, 'SIGKILL');
    assert.equal((await result()).status.value, 'STARTED');
    await t.startWorker({ QUEUE_POLL_MS: '200' });
    const ended = await until(result, (r) => r.status.value !== 'STARTED');
    assert.equal(ended.status.value, 'FAILURE');
    assert.equal(ended.result.exc_type, 'WorkerLostError');
    assert.ok(ended.date_done);
  });
});
