import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeJobsApp } from './helpers.js';
import type { JobsTestApp } from './helpers.js';

let t: JobsTestApp;
before(async () => { t = await makeJobsApp(); });
after(async () => { await t.close(); });

async function runJob(name: string, body: unknown) {
  const job = await t.job(name);
  return t.call('POST', `/api/extras/jobs/${job.id}/run/`, body);
}

async function finished(res: { body: any }) {
  await t.idle();
  return (await t.call('GET', `/api/extras/job-results/${res.body.job_result.id}/`)).body;
}

describe('GET /api/extras/jobs/', () => {
  it('should list the jobs of JOBS_ROOT with the reference fields, disabled until enabled', async () => {
    const res = await t.call('GET', '/api/extras/jobs/?module_name=testing&limit=100');
    assert.equal(res.status, 200);
    const makeTags = res.body.results.find((j: any) => j.job_class_name === 'MakeTags');
    assert.equal(makeTags.module_name, 'testing');
    assert.equal(makeTags.grouping, 'testing');
    assert.equal(makeTags.installed, true);
    assert.equal(makeTags.enabled, false);
    assert.deepEqual(makeTags.task_queues, ['default']);
    assert.equal(makeTags.default_job_queue.object_type, 'extras.jobqueue');
    assert.deepEqual(Object.keys(makeTags).slice(0, 8), ['id', 'object_type', 'display', 'url', 'natural_slug', 'task_queues', 'task_queues_override', 'module_name']);
    const nested = await t.call('GET', '/api/extras/jobs/?module_name=nested.more');
    assert.equal(nested.body.results[0].grouping, 'Nested');
  });

  it('should have the default job queue', async () => {
    const res = await t.call('GET', '/api/extras/job-queues/?name=default');
    assert.equal(res.body.count, 1);
    assert.equal(res.body.results[0].queue_type, 'celery');
  });
});

describe('GET /api/extras/jobs/{id}/variables/', () => {
  it('should describe each variable as the reference', async () => {
    const job = await t.job('Make Tags', { enable: false });
    const res = await t.call('GET', `/api/extras/jobs/${job.id}/variables/`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, [
      { name: 'names', type: 'StringVar', help_text: 'Comma-separated names', required: true },
      { name: 'count', type: 'IntegerVar', required: false, min_value: 1, max_value: 5 },
      { name: 'color', type: 'ChoiceVar', required: true, choices: [['ff0000', 'Red'], ['00ff00', 'Green']], default: 'ff0000' },
    ]);
    const byName = await t.call('GET', '/api/extras/jobs/Echo/variables/');
    assert.deepEqual(byName.body.map((v: any) => [v.name, v.type, v.model ?? null]), [['device', 'ObjectVar', 'dcim.device'], ['flag', 'BooleanVar', null], ['data', 'JSONVar', null], ['address', 'IPAddressVar', null], ['network', 'IPNetworkVar', null], ['many', 'MultiChoiceVar', null]]);
  });

  it('should answer 405 for POST', async () => {
    const job = await t.job('Make Tags', { enable: false });
    const res = await t.call('POST', `/api/extras/jobs/${job.id}/variables/`, {});
    assert.equal(res.status, 405);
  });
});

describe('POST /api/extras/jobs/{id}/run/', () => {
  it('should refuse a disabled job with 403', async () => {
    const job = await t.job('Boom', { enable: false });
    const res = await t.call('POST', `/api/extras/jobs/${job.id}/run/`, {});
    assert.equal(res.status, 403);
    assert.deepEqual(res.body, { detail: 'This job is not enabled to be run.' });
  });

  it('should run a job that creates objects, with its log and change log', async () => {
    const res = await runJob('Make Tags', { data: { names: 'job-a,job-b', color: '00ff00' }, job_id: 'ignored as DRF ignores unknown keys' });
    assert.equal(res.status, 201);
    assert.deepEqual(Object.keys(res.body), ['scheduled_job', 'job_result']);
    assert.equal(res.body.scheduled_job, null);
    assert.equal(res.body.job_result.status.value, 'PENDING');
    assert.deepEqual(res.body.job_result.task_kwargs, { names: 'job-a,job-b', count: null, color: '00ff00' });
    const result = await finished(res);
    assert.equal(result.status.value, 'SUCCESS');
    assert.ok(result.date_started && result.date_done);
    assert.equal(result.result.made.length, 2);
    const logs = await t.call('GET', `/api/extras/job-results/${result.id}/logs/`);
    assert.deepEqual(logs.body.map((l: any) => [l.log_level.value, l.grouping, l.message, l.log_object]), [
      ['info', 'initialization', 'Running job', 'Make Tags'],
      ['info', 'main', 'Made job-a', 'job-a'],
      ['info', 'main', 'Made job-b', 'job-b'],
      ['success', 'post_run', 'Job completed', ''],
    ]);
    const listed = await t.call('GET', `/api/extras/job-logs/?job_result=${result.id}`);
    assert.equal(listed.body.count, 4);
    const changes = await t.call('GET', `/api/extras/object-changes/?request_id=${result.id}`);
    assert.equal(changes.body.count, 2);
    for (const change of changes.body.results) {
      assert.equal(change.change_context.value ?? change.change_context, 'job');
      assert.equal(change.change_context_detail, 'testing.MakeTags');
      assert.equal(change.user_name, 'admin');
    }
    const tags = await t.call('GET', '/api/extras/tags/?name=job-a');
    assert.equal(tags.body.count, 1);
  });

  it('should run by name', async () => {
    await t.job('Echo');
    const res = await t.call('POST', '/api/extras/jobs/Echo/run/', { data: { flag: 'false', data: '{"a": 1}', address: '10.0.0.1', network: '10.0.0.0/24', many: ['a'] } });
    assert.equal(res.status, 201);
    const result = await finished(res);
    assert.equal(result.status.value, 'SUCCESS');
    assert.deepEqual(result.result, { device: null, flag: false, data: { a: 1 }, address: '10.0.0.1', network: '10.0.0.0/24', many: ['a'] });
  });

  it('should answer form errors per variable with 400 {errors}', async () => {
    const unknown = await runJob('Make Tags', { data: { names: 'x', color: 'ff0000', other: 1 } });
    assert.equal(unknown.status, 400);
    assert.deepEqual(unknown.body, { errors: { other: ['Job data contained an unknown property'] } });
    const bad = await runJob('Make Tags', { data: { count: 9, color: 'blue' } });
    assert.deepEqual(bad.body, { errors: { names: ['This field is required.'], count: ['Ensure this value is less than or equal to 5.'], color: ['Select a valid choice. blue is not one of the available choices.'] } });
    const echo = await runJob('Echo', { data: { device: '00000000-0000-0000-0000-000000000000', address: '10.0.0.0/8', network: '10.0.0.1' } });
    assert.deepEqual(echo.body, { errors: { device: ['Select a valid choice. That choice is not one of the available choices.'], address: ['Invalid IPv4/IPv6 address format: 10.0.0.0/8'], network: ['CIDR mask (e.g. /24) is required.'] } });
    const notDict = await runJob('Echo', { data: [1] });
    assert.deepEqual(notDict.body, { errors: ['Job data needs to be a dict'] });
  });

  it('should refuse a queue the job does not use, and both queue keys', async () => {
    const queue = await runJob('Echo', { task_queue: 'elsewhere' });
    assert.deepEqual([queue.status, queue.body], [400, { task_queue: ['"elsewhere" is not a valid choice.'] }]);
    const both = await runJob('Echo', { task_queue: 'default', job_queue: 'default' });
    assert.deepEqual([both.status, both.body], [400, { task_queue: 'task_queue and job_queue are both specified. Please specify only one or another.' }]);
  });

  it('should fail a job that throws, with its exception and traceback', async () => {
    const result = await finished(await runJob('Boom', {}));
    assert.equal(result.status.value, 'FAILURE');
    assert.deepEqual(result.result, { exc_type: 'TypeError', exc_message: 'kaboom' });
    assert.match(result.traceback, /kaboom/);
  });

  it('should fail a job that calls fail(), keeping its return value', async () => {
    const result = await finished(await runJob('Failing Softly', {}));
    assert.equal(result.status.value, 'FAILURE');
    assert.deepEqual(result.result, { partial: true });
  });

  it('should kill a CPU-bound job at its hard time limit while the API keeps answering', async () => {
    const res = await runJob('Spin', {});
    const during = await t.call('GET', `/api/extras/job-results/${res.body.job_result.id}/`);
    assert.equal(during.status, 200);
    const result = await finished(res);
    assert.equal(result.status.value, 'FAILURE');
    assert.deepEqual(result.result, { exc_type: 'TimeLimitExceeded', exc_message: 'TimeLimitExceeded(1,)' });
    const logs = await t.call('GET', `/api/extras/job-results/${result.id}/logs/`);
    assert.ok(logs.body.some((l: any) => l.log_level.value === 'failure' && /Hard time limit/.test(l.message)));
  });

  it('should fail the result of a job whose worker thread dies', async () => {
    const result = await finished(await runJob('Crash', {}));
    assert.equal(result.status.value, 'FAILURE');
    assert.equal(result.result.exc_type, 'WorkerLostError');
  });

  it('should not store sensitive variables, nor schedule such a job', async () => {
    const res = await runJob('Secret', { data: { password: 'hunter2' } });
    assert.deepEqual(res.body.job_result.task_kwargs, {});
    const result = await finished(res);
    assert.equal(result.status.value, 'SUCCESS');
    assert.ok(!JSON.stringify(result).includes('hunter2'));
    const scheduled = await runJob('Secret', { data: { password: 'x' }, schedule: { interval: 'daily', name: 's', start_time: '2099-01-01T00:00:00Z' } });
    assert.deepEqual([scheduled.status, scheduled.body], [400, { schedule: { interval: ['Unable to schedule job: Job may have sensitive input variables'] } }]);
  });

  it('should hold a job requiring approval as a scheduled job, unless it is a dry run', async () => {
    const held = await runJob('Needs Approval', {});
    assert.equal(held.status, 201);
    assert.equal(held.body.job_result, null);
    assert.equal(held.body.scheduled_job.approval_required, true);
    assert.equal(held.body.scheduled_job.interval.value ?? held.body.scheduled_job.interval, 'future');
    assert.equal(held.body.scheduled_job.one_off, true);
    const dry = await runJob('Needs Approval', { data: { dryrun: true } });
    assert.equal(dry.body.scheduled_job, null);
    assert.deepEqual((await finished(dry)).result, { dryrun: true });
  });

  it('should answer 404 for an unknown job', async () => {
    const res = await t.call('POST', '/api/extras/jobs/No%20Such%20Job/run/', {});
    assert.equal(res.status, 404);
  });
});
