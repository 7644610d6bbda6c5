import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeJobsApp } from './helpers.js';
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
