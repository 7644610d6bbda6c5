import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeJobsApp } from './helpers.js';
import { makeUser } from '../helpers/users.js';
import { fireDueSchedules } from '../../src/jobs/scheduler.js';
import type { JobsTestApp } from './helpers.js';

let t: JobsTestApp;
before(async () => { t = await makeJobsApp(); });
after(async () => { await t.close(); });

const HOUR = 3_600_000;
const future = (ms: number) => new Date(Date.now() + ms).toISOString();

async function schedule(name: string, body: Record<string, unknown>) {
  const job = await t.job(name);
  return t.call('POST', `/api/extras/jobs/${job.id}/run/`, body);
}

async function resultsOf(scheduleId: string) {
  return (await t.call('GET', `/api/extras/job-results/?scheduled_job=${scheduleId}`)).body;
}

describe('POST /api/extras/jobs/{id}/run/ with a schedule', () => {
  it('should record an hourly schedule and answer it as the reference', async () => {
    const start = future(HOUR);
    const res = await schedule('Echo', { data: { flag: true }, schedule: { name: 'every hour', interval: 'hourly', start_time: start } });
    assert.equal(res.status, 201);
    assert.equal(res.body.job_result, null);
    const s = res.body.scheduled_job;
    assert.deepEqual([s.name, s.task, s.one_off, s.enabled, s.total_run_count, s.approval_required, s.queue], ['every hour', 'nested.more.Echo', false, true, 0, false, 'default']);
    assert.deepEqual(s.kwargs, { device: null, flag: true, data: null, address: null, network: null, many: [] });
    assert.equal(new Date(s.start_time).getTime(), new Date(start).getTime());
  });

  it('should refuse a schedule without name, in the past, or with a bad crontab', async () => {
    const noName = await schedule('Echo', { schedule: { interval: 'daily', start_time: future(HOUR) } });
    assert.deepEqual([noName.status, noName.body], [400, { schedule: { name: ['Please provide a name for the job schedule.'] } }]);
    const past = await schedule('Echo', { schedule: { name: 'p', interval: 'daily', start_time: '2020-01-01T00:00:00Z' } });
    assert.deepEqual(past.body, { schedule: { start_time: ['Please enter a valid date and time greater than or equal to the current date and time.'] } });
    const cron = await schedule('Echo', { schedule: { name: 'c', interval: 'custom', crontab: '* * *' } });
    assert.deepEqual(cron.body, { schedule: { crontab: ['not enough values to unpack (expected 5, got 3)'] } });
    const interval = await schedule('Echo', { schedule: { name: 'i', interval: 'sometimes' } });
    assert.deepEqual(interval.body, { schedule: { interval: ['"sometimes" is not a valid choice.'] } });
  });
});

describe('the scheduler', () => {
  it('should fire each occurrence of an interval schedule once, even when asked concurrently', async () => {
    const start = new Date(Date.now() + HOUR);
    const res = await schedule('Echo', { schedule: { name: 'hourly once', interval: 'hourly', start_time: start.toISOString() } });
    const id = res.body.scheduled_job.id;
    assert.equal((await fireDueSchedules(t.app.services, new Date(start.getTime() - 1000))).filter((r) => r.scheduled_job_id === id).length, 0);
    const at = new Date(start.getTime() + 1000);
    const fired = await Promise.all([fireDueSchedules(t.app.services, at), fireDueSchedules(t.app.services, at), fireDueSchedules(t.app.services, at)]);
    assert.equal(fired.flat().filter((r) => r.scheduled_job_id === id).length, 1);
    assert.equal((await fireDueSchedules(t.app.services, new Date(start.getTime() + 2000))).filter((r) => r.scheduled_job_id === id).length, 0);
    assert.equal((await fireDueSchedules(t.app.services, new Date(start.getTime() + HOUR + 5000))).filter((r) => r.scheduled_job_id === id).length, 1);
    await t.idle();
    const results = await resultsOf(id);
    assert.equal(results.count, 2);
    assert.ok(results.results.every((r: any) => r.status.value === 'SUCCESS' && r.user.id));
    const after = (await t.call('GET', `/api/extras/scheduled-jobs/${id}/`)).body;
    assert.equal(after.total_run_count, 2);
    assert.equal(new Date(after.last_run_at).getTime(), start.getTime() + HOUR);
  });

  it('should follow a crontab and stop a one-off after its run', async () => {
    const res = await schedule('Echo', { schedule: { name: 'every 5 min', interval: 'custom', crontab: '*/5 * * * *' } });
    const s = res.body.scheduled_job;
    const start = new Date(s.start_time);
    assert.equal(start.getUTCMinutes() % 5, 0);
    assert.equal((await fireDueSchedules(t.app.services, new Date(start.getTime() + 60_000))).filter((r) => r.scheduled_job_id === s.id).length, 1);
    assert.equal((await fireDueSchedules(t.app.services, new Date(start.getTime() + 240_000))).filter((r) => r.scheduled_job_id === s.id).length, 0);
    assert.equal((await fireDueSchedules(t.app.services, new Date(start.getTime() + 300_000))).filter((r) => r.scheduled_job_id === s.id).length, 1);
    const once = await schedule('Echo', { schedule: { name: 'once', interval: 'future', start_time: future(HOUR) } });
    const onceAt = new Date(new Date(once.body.scheduled_job.start_time).getTime() + 1000);
    const ofOnce = (rows: Record<string, unknown>[]) => rows.filter((r) => r.scheduled_job_id === once.body.scheduled_job.id).length;
    assert.equal(ofOnce(await fireDueSchedules(t.app.services, onceAt)), 1);
    assert.equal(ofOnce(await fireDueSchedules(t.app.services, new Date(onceAt.getTime() + HOUR))), 0);
    assert.equal((await t.call('GET', `/api/extras/scheduled-jobs/${once.body.scheduled_job.id}/`)).body.enabled, false);
    await t.idle();
  });
});

describe('approval', () => {
  it('should run an approved request, refuse self-approval and a past start without force', async () => {
    const held = await schedule('Needs Approval', {});
    const id = held.body.scheduled_job.id;
    assert.equal((await fireDueSchedules(t.app.services)).filter((r) => r.scheduled_job_id === id).length, 0);
    const own = await t.call('POST', `/api/extras/scheduled-jobs/${id}/approve/`);
    assert.deepEqual([own.status, own.body], [403, 'You cannot approve your own job request!']);
    const approver = await makeUser(t, 'approver', [{ object_types: ['extras.scheduledjob'], actions: ['view', 'change'] }, { object_types: ['extras.job'], actions: ['approve'] }]);
    const past = await approver.call('POST', `/api/extras/scheduled-jobs/${id}/approve/`);
    assert.deepEqual([past.status, past.body], [400, "The job's start time is in the past. If you want to force a run anyway, add the `force` query parameter."]);
    const ok = await approver.call('POST', `/api/extras/scheduled-jobs/${id}/approve/?force=true`);
    assert.equal(ok.status, 200);
    assert.equal(ok.body.approved_by_user.id, approver.id);
    assert.ok(ok.body.approved_at);
    assert.equal((await fireDueSchedules(t.app.services)).filter((r) => r.scheduled_job_id === id).length, 1);
    await t.idle();
    assert.equal((await resultsOf(id)).results[0].status.value, 'SUCCESS');
  });

  it('should refuse approval without the approve permission on the job', async () => {
    const held = await schedule('Needs Approval', {});
    const clerk = await makeUser(t, 'clerk', [{ object_types: ['extras.scheduledjob'], actions: ['view', 'change'] }]);
    const res = await clerk.call('POST', `/api/extras/scheduled-jobs/${held.body.scheduled_job.id}/approve/?force=1`);
    assert.deepEqual([res.status, res.body], [403, { detail: 'You do not have permission to approve this request.' }]);
  });

  it('should dry-run a request at once and delete a denied one', async () => {
    const held = await schedule('Needs Approval', {});
    const id = held.body.scheduled_job.id;
    const dry = await t.call('POST', `/api/extras/scheduled-jobs/${id}/dry-run/`);
    assert.equal(dry.status, 200);
    assert.equal(dry.body.object_type, 'extras.jobresult');
    await t.idle();
    assert.deepEqual((await t.call('GET', `/api/extras/job-results/${dry.body.id}/`)).body.result, { dryrun: true });
    const denied = await t.call('POST', `/api/extras/scheduled-jobs/${id}/deny/`);
    assert.deepEqual([denied.status, denied.body], [200, null]);
    assert.equal((await t.call('GET', `/api/extras/scheduled-jobs/${id}/`)).status, 404);
    const get = await t.call('GET', `/api/extras/scheduled-jobs/${id}/approve/`);
    assert.equal(get.status, 405);
  });
});
