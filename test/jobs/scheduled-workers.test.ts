import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeProcessesApp, until } from './worker-processes.js';
import type { ProcessesApp } from './worker-processes.js';

/**
 * Two `inventory worker` processes on one PostgreSQL database fire a schedule of every minute
 * once per minute. Minutes pass in seconds: the workers' scheduler clock (JOBS_SCHEDULER_CLOCK)
 * runs fifteen times as fast as the real one.
 */
const PG = process.env.DATABASE_URL?.startsWith('postgres');
const ROOT = path.resolve(import.meta.dirname, 'fixtures/tick-root');
const SPEED = 15;
/** How long the workers' clock stands still: time for two worker processes to start on a busy machine. */
const FROZEN_MS = 30_000;
const WANTED_RUNS = 3;

describe('a schedule of every minute with two worker processes', { skip: !PG && 'PostgreSQL only (DATABASE_URL=postgres://...)' }, () => {
  let t: ProcessesApp;
  before(async () => { t = await makeProcessesApp({ root: ROOT }); });
  after(async () => { await t.close(); });

  it('should run the job once per minute, each minute claimed by one worker only', async () => {
    // The schedule starts at the minute `start`, at least 15 s ahead as the API demands; the
    // workers' clock stands before it until they have surely started and the schedule exists.
    const spawnMs = Date.now();
    const start = Math.ceil((spawnMs + FROZEN_MS + 20_000) / 60_000) * 60_000;
    const env = { JOBS_SCHEDULER_MS: '100', QUEUE_POLL_MS: '200', JOBS_SCHEDULER_CLOCK: `${spawnMs + FROZEN_MS},${start - 3000},${SPEED}` };
    await Promise.all([t.startWorker(env), t.startWorker(env)]);
    const job = (await t.call('GET', '/api/extras/jobs/?name=Tick')).body.results[0];
    assert.equal((await t.call('PATCH', `/api/extras/jobs/${job.id}/`, { enabled: true })).status, 200);
    assert.ok(Date.now() < spawnMs + FROZEN_MS - 1000, 'the workers started before their clock runs');
    const res = await t.call('POST', `/api/extras/jobs/${job.id}/run/`, { data: {}, schedule: { name: 'every minute', interval: 'custom', crontab: '* * * * *', start_time: new Date(start).toISOString() } });
    assert.equal(res.status, 201, res.raw);
    const scheduleId = res.body.scheduled_job.id;
    const runs = async () => (await t.call('GET', `/api/extras/job-results/?scheduled_job=${scheduleId}&limit=100`)).body.results as any[];
    await until(runs, (seen) => seen.filter((r) => r.status.value === 'SUCCESS').length >= WANTED_RUNS);
    await t.stopWorkers();
    const schedule = (await t.call('GET', `/api/extras/scheduled-jobs/${scheduleId}/`)).body;
    const results = await runs();
    const minutes = (Date.parse(schedule.last_run_at) - start) / 60_000 + 1;
    assert.equal(results.length, schedule.total_run_count, 'one job result per claimed occurrence');
    assert.equal(results.length, minutes, `one run for each minute from the first to the last (${JSON.stringify(schedule)})`);
  });
});
