import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { buildApp } from '../../src/api/app.js';
import { loadConfig } from '../../src/core/config.js';
import { connect } from '../../src/db/connect.js';
import type { ChildProcess } from 'node:child_process';
import type { FastifyInstance } from 'fastify';

/**
 * Two `inventory worker` processes on one PostgreSQL database fire a schedule of every minute
 * once per minute. Minutes pass in seconds: the workers' scheduler clock (JOBS_SCHEDULER_CLOCK)
 * runs fifteen times as fast as the real one.
 */
const PG = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;
const ROOT = path.resolve(import.meta.dirname, 'fixtures/tick-root');
const TOKEN = '0123456789abcdef0123456789abcdef01234567';
const SPEED = 15;
const FROZEN_MS = 12_000;
const WANTED_RUNS = 3;

let app: FastifyInstance;
let dbUrl = '';
let dbName = '';
const workers: ChildProcess[] = [];

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function call(method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) {
  const res = await app.inject({ method, url, headers: { authorization: `Token ${TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) }, payload: body ? JSON.stringify(body) : undefined });
  return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined, raw: res.body };
}

/** Starts an `inventory worker` and resolves once it says it runs. */
function startWorker(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.resolve(import.meta.dirname, '../../src/cli.ts'), 'worker'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  workers.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += String(chunk);
      if (out.includes('running')) resolve(child);
    });
    child.stderr!.on('data', (chunk) => { out += String(chunk); });
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}: ${out}`)));
  });
}

function stopWorker(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

describe('a schedule of every minute with two worker processes', { skip: !PG && 'PostgreSQL only (DATABASE_URL=postgres://...)' }, () => {
  before(async () => {
    dbName = `jobs_sched_${randomBytes(5).toString('hex')}`;
    await admin(`CREATE DATABASE ${dbName}`);
    const url = new URL(PG!);
    url.pathname = `/${dbName}`;
    dbUrl = url.toString();
    const config = loadConfig({ DATABASE_URL: dbUrl, SUPERUSER_NAME: 'admin', SUPERUSER_PASSWORD: 'admin-pass', SUPERUSER_API_TOKEN: TOKEN, JOBS_ROOT: ROOT, JOBS_SCHEDULER_MS: '0', QUEUE_EMBEDDED: 'false' });
    app = await buildApp({ config, dialect: connect(dbUrl) });
  });
  after(async () => {
    await Promise.all(workers.map(stopWorker));
    await app?.close();
    if (dbName) await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  });

  it('should run the job once per minute, each minute claimed by one worker only', async () => {
    // The schedule starts at the minute S, at least 15 s ahead as the API demands; the workers'
    // clock stands before S until they have surely started and the schedule exists, then runs.
    const spawnMs = Date.now();
    const start = Math.ceil((spawnMs + 30_000) / 60_000) * 60_000;
    const env = { DATABASE_URL: dbUrl, JOBS_ROOT: ROOT, JOBS_SCHEDULER_MS: '100', QUEUE_POLL_MS: '200', JOBS_SCHEDULER_CLOCK: `${spawnMs + FROZEN_MS},${start - 3000},${SPEED}` };
    await Promise.all([startWorker(env), startWorker(env)]);
    const job = (await call('GET', '/api/extras/jobs/?name=Tick')).body.results[0];
    assert.equal((await call('PATCH', `/api/extras/jobs/${job.id}/`, { enabled: true })).status, 200);
    assert.ok(Date.now() < spawnMs + FROZEN_MS - 1000, 'the workers started before their clock runs');
    const res = await call('POST', `/api/extras/jobs/${job.id}/run/`, { data: {}, schedule: { name: 'every minute', interval: 'custom', crontab: '* * * * *', start_time: new Date(start).toISOString() } });
    assert.equal(res.status, 201, res.raw);
    const scheduleId = res.body.scheduled_job.id;
    // The workers are other processes: nothing here can await their runs but the database.
    const runs = async () => (await call('GET', `/api/extras/job-results/?scheduled_job=${scheduleId}&limit=100`)).body.results;
    for (let seen = await runs(); seen.filter((r: any) => r.status.value === 'SUCCESS').length < WANTED_RUNS; seen = await runs()) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await Promise.all(workers.map(stopWorker));
    const schedule = (await call('GET', `/api/extras/scheduled-jobs/${scheduleId}/`)).body;
    const results = await runs();
    const minutes = (Date.parse(schedule.last_run_at) - start) / 60_000 + 1;
    assert.equal(results.length, schedule.total_run_count, 'one job result per claimed occurrence');
    assert.equal(results.length, minutes, `one run for each minute from the first to the last (${JSON.stringify(schedule)})`);
    assert.ok(results.every((r: any) => r.job_model?.id === job.id || r.job_model === job.id || r.name === 'Tick'));
  });
});
