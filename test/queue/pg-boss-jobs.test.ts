import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DB_URL } from '../helpers/app.js';
import { makeJobsApp } from '../jobs/helpers.js';
import { loadConfig } from '../../src/core/config.js';
import { pgBossSchema } from '../../src/queue/pg-boss.js';
import type { JobsTestApp } from '../jobs/helpers.js';
import { dropPgBossSchema } from '../helpers/worker-process.js';

// Job runs go through the same queue contract: on the pg-boss engine they are pg-boss jobs.
const onPostgres = DB_URL.startsWith('postgres');
let t: JobsTestApp;

before(async () => {
  if (onPostgres) t = await makeJobsApp({ queue: { ...loadConfig({}).queue, engine: 'pg-boss' } });
});

after(async () => {
  if (!onPostgres) return;
  const schema = pgBossSchema(t.app.services);
  await t.close();
  await dropPgBossSchema(DB_URL, schema);
});

test('pg-boss: a job run through the API runs to SUCCESS as on the database engine', { skip: !onPostgres }, async () => {
  await t.job('Echo');
  const res = await t.call('POST', '/api/extras/jobs/Echo/run/', { data: { flag: 'true', many: ['b'] } });
  assert.equal(res.status, 201);
  await t.idle();
  const result = (await t.call('GET', `/api/extras/job-results/${res.body.job_result.id}/`)).body;
  assert.equal(result.status.value, 'SUCCESS');
  assert.equal(result.result.flag, true);
  const jobs = await t.app.services.dialect.db.selectFrom(`${pgBossSchema(t.app.services)}.job` as any).select('name').execute();
  assert.ok(jobs.some((j: any) => j.name === 'job'), JSON.stringify(jobs));
});
