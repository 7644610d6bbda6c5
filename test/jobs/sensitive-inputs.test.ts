import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeJobsApp } from './helpers.js';
import type { JobsTestApp } from './helpers.js';

let t: JobsTestApp;
before(async () => { t = await makeJobsApp(); });
after(async () => { await t.close(); });

describe('job inputs', () => {
  it('should keep a sensitive input in no queue row, job result or input row once the run ended', async () => {
    const job = await t.job('Secret');
    const res = await t.call('POST', `/api/extras/jobs/${job.id}/run/`, { data: { password: 'hunter2-secret' } });
    assert.equal(res.status, 201, res.raw);
    await t.idle();
    const result = (await t.call('GET', `/api/extras/job-results/${res.body.job_result.id}/`)).body;
    assert.equal(result.status.value, 'SUCCESS', JSON.stringify(result));
    assert.deepEqual(result.task_kwargs, {});
    const logs = (await t.call('GET', `/api/extras/job-results/${result.id}/logs/`)).body;
    assert.ok(JSON.stringify(logs).includes('got 14 characters'), 'the job received its input');
    const { db } = t.app.services.dialect;
    const rows = await db.selectFrom('inventory_queue').select(['payload', 'result']).where('kind', '=', 'job').execute();
    assert.ok(rows.length > 0);
    assert.ok(rows.every((r) => !JSON.stringify(r).includes('hunter2')), JSON.stringify(rows));
    assert.deepEqual(await db.selectFrom('inventory_job_inputs').selectAll().execute(), []);
  });

  it('should keep a queued run\'s input apart from its queue row until the run starts', async () => {
    const job = await t.job('Echo');
    const res = await t.call('POST', `/api/extras/jobs/${job.id}/run/`, { data: { flag: 'true', data: '{"marker": "visible-until-start"}', address: '10.0.0.1', network: '10.0.0.0/24', many: ['a'] } });
    assert.equal(res.status, 201, res.raw);
    await t.idle();
    const { db } = t.app.services.dialect;
    const rows = await db.selectFrom('inventory_queue').select('payload').where('kind', '=', 'job').execute();
    assert.ok(rows.every((r) => !String(r.payload).includes('visible-until-start')));
    assert.deepEqual(await db.selectFrom('inventory_job_inputs').selectAll().execute(), []);
    const result = (await t.call('GET', `/api/extras/job-results/${res.body.job_result.id}/`)).body;
    assert.equal(result.status.value, 'SUCCESS', JSON.stringify(result));
  });
});
