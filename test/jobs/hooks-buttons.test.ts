import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeJobsApp } from './helpers.js';
import { expectRun } from '../../src/jobs/dispatch.js';
import { publishedListeners } from '../../src/events/publisher.js';
import type { JobsTestApp } from './helpers.js';

let t: JobsTestApp;
before(async () => { t = await makeJobsApp(); });
after(async () => { await t.close(); });

/** Waits, publication after publication of the outbox, until `check` holds. */
async function publishedUntil(check: () => Promise<boolean>): Promise<void> {
  const listeners = publishedListeners(t.app.services);
  for (;;) {
    let heard!: () => void;
    const next = new Promise<void>((resolve) => { heard = resolve; });
    listeners.add(heard);
    try {
      if (await check()) return;
      await next;
    } finally {
      listeners.delete(heard);
    }
  }
}

async function hookResults(jobId: string) {
  return (await t.call('GET', `/api/extras/job-results/?job_model=${jobId}`)).body.results;
}

describe('job hooks', () => {
  it('should refuse a hook without any action, or on a job that is not enabled', async () => {
    const job = await t.job('Tag Hook', { enable: false });
    const none = await t.call('POST', '/api/extras/job-hooks/', { name: 'none', content_types: ['extras.tag'], job: job.id });
    assert.deepEqual([none.status, none.body], [400, { __all__: ['You must select at least one type: create, update, and/or delete.'] }]);
    const disabled = await t.call('POST', '/api/extras/job-hooks/', { name: 'off', content_types: ['extras.tag'], job: job.id, type_create: true });
    assert.deepEqual([disabled.status, disabled.body], [400, { enabled: ['The selected Job is not installed and enabled'] }]);
  });

  it('should run the hook once per matching change, as the user who made it, and not for its own changes', async () => {
    const job = await t.job('Tag Hook');
    const hook = await t.call('POST', '/api/extras/job-hooks/', { name: 'tags', content_types: ['extras.tag'], job: job.id, type_create: true, type_update: true });
    assert.equal(hook.status, 201, hook.raw);
    const tag = await t.call('POST', '/api/extras/tags/', { name: 'hooked-tag', content_types: ['dcim.device'] });
    await publishedUntil(async () => (await hookResults(job.id)).length >= 1);
    const [result] = await hookResults(job.id);
    expectRun(t.app.services, result.id);
    await t.idle();
    const done = (await t.call('GET', `/api/extras/job-results/${result.id}/`)).body;
    assert.equal(done.status.value, 'SUCCESS', JSON.stringify(done.result));
    assert.deepEqual(done.result, { action: 'create' });
    assert.equal(done.user.id !== undefined, true);
    const own = await t.call('GET', `/api/extras/object-changes/?request_id=${result.id}`);
    assert.equal(own.body.results[0].change_context.value ?? own.body.results[0].change_context, 'job-hook');
    // A later, unhooked write is published after the hook's own change: by then that change had its chance.
    await t.call('POST', '/api/tenancy/tenants/', { name: 'after-hook' });
    const marker = (await t.call('GET', '/api/extras/object-changes/?changed_object_type=tenancy.tenant&limit=1')).body.results[0];
    await publishedUntil(async () => !!(await t.app.services.dialect.db.selectFrom('inventory_outbox').select('seq').where('change_id', '=', marker.id).executeTakeFirst())?.seq);
    assert.equal((await hookResults(job.id)).length, 1);
    assert.equal((await t.call('GET', `/api/extras/tags/${tag.body.id}/`)).body.description, 'hooked create');
  });
});

describe('job buttons', () => {
  it('should accept a button on a receiver job and run the receiver with the object', async () => {
    const job = await t.job('Tag Button');
    const button = await t.call('POST', '/api/extras/job-buttons/', { name: 'press', text: 'Press', content_types: ['extras.tag'], job: job.id });
    assert.equal(button.status, 201, button.raw);
    const variables = await t.call('GET', `/api/extras/jobs/${job.id}/variables/`);
    assert.deepEqual(variables.body.map((v: any) => v.name), ['object_pk', 'object_model_name']);
    const tag = await t.call('POST', '/api/extras/tags/', { name: 'pressed', content_types: ['dcim.device'] });
    const run = await t.call('POST', `/api/extras/jobs/${job.id}/run/`, { data: { object_pk: tag.body.id, object_model_name: 'extras.tag' } });
    assert.equal(run.status, 201);
    await t.idle();
    assert.deepEqual((await t.call('GET', `/api/extras/job-results/${run.body.job_result.id}/`)).body.result, { pressed_on: 'pressed' });
  });
});
