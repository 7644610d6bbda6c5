import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeJobsApp } from './helpers.js';
import { fireDueSchedules } from '../../src/jobs/scheduler.js';
import type { JobsTestApp } from './helpers.js';

let t: JobsTestApp;
before(async () => { t = await makeJobsApp({ root: path.resolve(import.meta.dirname, 'fixtures/upload-root') }); });
after(async () => { await t.close(); });

describe('/api/extras/jobs/{id or name}/', () => {
  it('should read and patch a job by id and by name', async () => {
    const job = await t.job('Read Upload', { enable: false });
    const byId = await t.call('GET', `/api/extras/jobs/${job.id}/`);
    assert.equal(byId.status, 200);
    const byName = await t.call('GET', `/api/extras/jobs/${encodeURIComponent('Read Upload')}/`);
    assert.equal(byName.status, 200, byName.raw);
    assert.deepEqual(byName.body, byId.body);
    const patched = await t.call('PATCH', `/api/extras/jobs/${encodeURIComponent('Read Upload')}/`, { description_override: true, description: 'from the API' });
    assert.equal(patched.status, 200, patched.raw);
    assert.equal(patched.body.description, 'from the API');
    assert.equal((await t.call('GET', `/api/extras/jobs/${encodeURIComponent('No Such Job')}/`)).status, 404);
    assert.equal((await t.call('GET', '/api/extras/jobs/bad%00name/')).status, 404);
  });

  it('should delete a job by name, and refuse to delete a system job with 409', async () => {
    const gone = await t.call('DELETE', `/api/extras/jobs/${encodeURIComponent('Removable')}/`);
    assert.equal(gone.status, 204, gone.raw);
    assert.equal((await t.call('GET', '/api/extras/jobs/?name=Removable')).body.count, 0);
    const system = await t.job('Logs Cleanup', { enable: false });
    const refused = await t.call('DELETE', `/api/extras/jobs/${system.id}/`);
    assert.equal(refused.status, 409, refused.raw);
    assert.deepEqual(refused.body, { detail: 'Unable to delete object. 0 dependent objects were found: ' });
    const byName = await t.call('DELETE', `/api/extras/jobs/${encodeURIComponent('Logs Cleanup')}/`);
    assert.equal(byName.status, 409, byName.raw);
    const bulk = await t.call('DELETE', '/api/extras/jobs/', [{ id: system.id }]);
    assert.equal(bulk.status, 409, bulk.raw);
    assert.equal((await t.call('GET', `/api/extras/jobs/${system.id}/`)).status, 200);
  });
});

/** A multipart/form-data body with text fields and one file. */
function multipart(fields: [string, string][], file: { field: string; name: string; content: string }) {
  const boundary = '----jobs-test-boundary';
  const parts = fields.map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: text/csv\r\n\r\n${file.content}\r\n`);
  return { payload: `${parts.join('')}--${boundary}--\r\n`, contentType: `multipart/form-data; boundary=${boundary}` };
}

describe('POST /api/extras/jobs/{id}/run/ as multipart/form-data', () => {
  it('should say so in OPTIONS', async () => {
    const job = await t.job('Read Upload', { enable: false });
    const res = await t.call('OPTIONS', `/api/extras/jobs/${job.id}/run/`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.parses, ['application/json', 'multipart/form-data']);
  });

  it('should run a job with an uploaded file and form fields', async () => {
    const job = await t.job('Read Upload');
    const body = multipart([['note', 'hello'], ['count', '3'], ['_job_queue', 'default']], { field: 'upload', name: 'rows.csv', content: 'name\nx\n' });
    const res = await t.call('POST', `/api/extras/jobs/${job.id}/run/`, body.payload, { headers: { 'content-type': body.contentType } });
    assert.equal(res.status, 201, res.raw);
    await t.idle();
    const result = (await t.call('GET', `/api/extras/job-results/${res.body.job_result.id}/`)).body;
    assert.equal(result.status.value, 'SUCCESS', JSON.stringify(result));
    assert.deepEqual(result.result, { name: 'rows.csv', content: 'name\nx\n', note: 'hello', count: 3 });
    // As the reference: the upload was a file proxy whose id the run's kwargs hold, deleted once the run ended.
    const proxyId = result.task_kwargs.upload;
    assert.match(proxyId, /^[0-9a-f-]{36}$/);
    assert.deepEqual(result.task_kwargs, { upload: proxyId, note: 'hello', count: 3 });
    assert.equal((await t.call('GET', `/api/extras/file-proxies/${proxyId}/`)).status, 404);
    assert.deepEqual(result.files, []);
    const logs = (await t.call('GET', `/api/extras/job-results/${result.id}/logs/`)).body;
    assert.ok(logs.some((l: any) => l.log_level.value === 'debug' && l.grouping === 'post_run' && l.message === 'Deleted 1 file proxies'), JSON.stringify(logs.map((l: any) => l.message)));
  });

  it('should keep the upload of a scheduled run as a file proxy until the run, and refuse a FileVar that is no file', async () => {
    const job = await t.job('Read Upload');
    const start = new Date(Date.now() + 3_600_000).toISOString();
    const body = multipart([['_schedule_name', 'later upload'], ['_schedule_interval', 'future'], ['_schedule_start_time', start]], { field: 'upload', name: 'later.csv', content: 'a,b\n1,2\n' });
    const res = await t.call('POST', `/api/extras/jobs/${job.id}/run/`, body.payload, { headers: { 'content-type': body.contentType } });
    assert.equal(res.status, 201, res.raw);
    assert.equal(res.body.job_result, null);
    const proxyId = res.body.scheduled_job.kwargs.upload;
    assert.deepEqual(res.body.scheduled_job.kwargs, { upload: proxyId, note: null, count: null });
    const proxy = await t.call('GET', `/api/extras/file-proxies/${proxyId}/`);
    assert.equal(proxy.status, 200, proxy.raw);
    assert.equal(proxy.body.name, 'later.csv');
    assert.equal(proxy.body.job_result, null);
    assert.equal((await t.call('GET', `/api/extras/file-proxies/${proxyId}/download/`)).raw, 'a,b\n1,2\n');
    // When it fires, the run reads the file from its proxy, which then goes.
    const [fired] = await fireDueSchedules(t.app.services, new Date(Date.parse(start) + 60_000));
    await t.idle();
    const ran = (await t.call('GET', `/api/extras/job-results/${fired.id}/`)).body;
    assert.equal(ran.status.value, 'SUCCESS', JSON.stringify(ran));
    assert.deepEqual(ran.result, { name: 'later.csv', content: 'a,b\n1,2\n', note: null, count: null });
    assert.equal((await t.call('GET', `/api/extras/file-proxies/${proxyId}/`)).status, 404);
    const json = await t.call('POST', `/api/extras/jobs/${job.id}/run/`, { data: { upload: proxyId } });
    assert.equal(json.status, 400, json.raw);
    assert.deepEqual(json.body, { errors: { upload: ['No file was submitted. Check the encoding type on the form.'] } });
  });

  it('should refuse both _task_queue and _job_queue, and name a bad variable', async () => {
    const job = await t.job('Read Upload');
    const both = multipart([['_task_queue', 'default'], ['_job_queue', 'default']], { field: 'upload', name: 'a.csv', content: 'x' });
    const res = await t.call('POST', `/api/extras/jobs/${job.id}/run/`, both.payload, { headers: { 'content-type': both.contentType } });
    assert.equal(res.status, 400, res.raw);
    assert.deepEqual(res.body, { _task_queue: ['_task_queue and _job_queue are both specified. Please specify only one or another.'] });
    const bad = multipart([['count', 'many']], { field: 'upload', name: 'a.csv', content: 'x' });
    const res2 = await t.call('POST', `/api/extras/jobs/${job.id}/run/`, bad.payload, { headers: { 'content-type': bad.contentType } });
    assert.equal(res2.status, 400, res2.raw);
    assert.deepEqual(Object.keys(res2.body.errors), ['count']);
  });
});
