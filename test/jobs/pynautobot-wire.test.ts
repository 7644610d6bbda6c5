import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeJobsApp } from './helpers.js';
import type { JobsTestApp } from './helpers.js';

/**
 * The requests pynautobot 3.1 sent (captured on the wire against a running server, JOBS_ROOT =
 * the repository's ./jobs) for `nb.extras.jobs.run(job_id=..., data=...)` and
 * `nb.extras.jobs.run_and_wait(job_name=..., data=...)`, then reading the locations, the job's
 * log entries and its change log. pynautobot posts its keyword arguments as the body, `job_id` /
 * `job_name` included; run_and_wait polls the job result's `url` until the status leaves
 * PENDING/STARTED (the test awaits the runner instead).
 */
let t: JobsTestApp;
before(async () => { t = await makeJobsApp({ root: path.resolve(import.meta.dirname, '../../jobs') }); });
after(async () => { await t.close(); });

describe('pynautobot jobs.run and run_and_wait', () => {
  it('should run the example job that creates locations, with logs and change log', async () => {
    const type = await t.call('POST', '/api/dcim/location-types/', { name: 'PyNB Site', content_types: ['dcim.device'] });
    assert.equal(type.status, 201);
    const jobs = await t.call('GET', '/api/extras/jobs/?name=Create+Locations');
    const job = jobs.body.results[0];
    assert.equal((await t.call('PATCH', `/api/extras/jobs/${job.id}/`, { enabled: true })).status, 200);
    assert.equal((await t.call('GET', '/api/')).status, 200);

    const byId = await t.call('POST', `/api/extras/jobs/${job.id}/run/`, { job_id: job.id, data: { location_type: type.body.id, prefix: 'pynb', count: 2 } });
    assert.equal(byId.status, 201);
    assert.equal(byId.body.job_result.status.value, 'PENDING');
    const byName = await t.call('POST', '/api/extras/jobs/Create%20Locations/run/', { job_name: 'Create Locations', data: { location_type: type.body.id, prefix: 'pynb2', count: 1 } });
    assert.equal(byName.status, 201);

    await t.idle();
    const polled = await t.call('GET', new URL(byName.body.job_result.url).pathname);
    assert.equal(polled.body.status.value, 'SUCCESS');
    assert.equal(polled.body.result.created, 1);
    const first = await t.call('GET', new URL(byId.body.job_result.url).pathname);
    assert.equal(first.body.status.value, 'SUCCESS');

    const locations = await t.call('GET', '/api/dcim/locations/?name__isw=pynb');
    assert.deepEqual(locations.body.results.map((l: any) => l.name).sort(), ['pynb-1', 'pynb-2', 'pynb2-1']);
    const logs = await t.call('GET', `/api/extras/job-logs/?job_result=${polled.body.id}`);
    assert.deepEqual(logs.body.results.map((l: any) => [l.log_level.label, l.message]), [['Info', 'Running job'], ['Success', 'Created location'], ['Success', 'Job completed']]);
    const changes = await t.call('GET', `/api/extras/object-changes/?request_id=${polled.body.id}`);
    assert.deepEqual(changes.body.results.map((c: any) => [c.change_context.value ?? c.change_context, c.user_name, c.object_repr]), [['job', 'admin', 'pynb2-1']]);
  });
});
