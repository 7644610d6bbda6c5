import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { setTimeout } from 'node:timers/promises';
import pg from 'pg';
import { DB_URL, TOKEN } from '../helpers/app.js';
import { Receiver } from '../helpers/receiver.js';
import { freshDatabase, waitForHealth } from '../helpers/server.js';
import { freePort, spawnWorker, stopProcess } from '../helpers/worker-process.js';
import { FIXTURE_ROOT } from '../jobs/helpers.js';
import type { ChildProcess } from 'node:child_process';

// An API process on the pg-boss engine with no runner (QUEUE_EMBEDDED=false) on a fresh schema:
// no process has created pg-boss's queues yet, and its writes (a job run, a webhook-triggering
// create) still enqueue in their transactions; a worker started afterwards runs them.
const onPostgres = DB_URL.startsWith('postgres');
let PORT = 0;
let BASE = '';
let receiver: Receiver;
let db: { url: string; drop: () => Promise<void> };
const children = new Set<ChildProcess>();

function env(): NodeJS.ProcessEnv {
  return { ...process.env, DATABASE_URL: db.url, PORT: String(PORT), HOST: '127.0.0.1', LOG_LEVEL: 'warn', SUPERUSER_NAME: 'admin', SUPERUSER_API_TOKEN: TOKEN,
    QUEUE_ENGINE: 'pg-boss', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', QUEUE_LEASE_MS: '3000', QUEUE_POLL_MS: '500', JOBS_ROOT: path.resolve(FIXTURE_ROOT), JOBS_SCHEDULER_MS: '0' };
}

/** The API server, with `extra` settings. */
function startServerProcess(extra: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], { env: { ...env(), ...extra }, stdio: 'ignore' });
  children.add(child);
  return child;
}

/** An `inventory worker` process; resolves once it says it runs. */
async function startWorker(): Promise<ChildProcess> {
  const { child } = await spawnWorker(env());
  children.add(child);
  return child;
}

async function call(method: string, url: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${BASE}${url}`, { method, headers: { authorization: `Token ${TOKEN}`, 'content-type': 'application/json', accept: 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: await res.json().catch(() => undefined) };
}

/** A heartbeat row as a starting worker writes, without any runner having created pg-boss's queues. */
async function aliveWorkerWithoutQueues(): Promise<void> {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  await client.query('INSERT INTO inventory_workers (id, hostname, pid, started, heartbeat) VALUES ($1, $2, $3, $4, $4)', ['starting-worker', 'test', 0, Date.now()]);
  await client.end();
}

before(async () => {
  if (!onPostgres) return;
  receiver = new Receiver();
  await receiver.listen();
  db = await freshDatabase();
  PORT = await freePort();
  BASE = `http://127.0.0.1:${PORT}`;
  const server = startServerProcess({ QUEUE_EMBEDDED: 'false' });
  await waitForHealth(BASE, server);
});

after(async () => {
  if (!onPostgres) return;
  for (const child of children) await stopProcess(child, 'SIGKILL');
  await receiver.close();
  await db.drop();
});

test('pg-boss without a runner: the API accepts a job run and a webhook-triggering write; a worker started later runs them', { skip: !onPostgres }, async () => {
  const listed = await call('GET', '/api/extras/jobs/?name=Echo');
  const job = listed.body.results[0];
  assert.ok(job, JSON.stringify(listed.body));
  assert.equal((await call('PATCH', `/api/extras/jobs/${job.id}/`, { enabled: true })).status, 200);
  const hook = await call('POST', '/api/extras/webhooks/', { name: 'no-runner', content_types: ['dcim.manufacturer'], type_create: true, payload_url: receiver.url });
  assert.equal(hook.status, 201, JSON.stringify(hook.body));
  // A worker counts as alive (its heartbeat) before any runner made pg-boss's queues: the API takes the run.
  await aliveWorkerWithoutQueues();
  const run = await call('POST', `/api/extras/jobs/${job.id}/run/`, { data: { flag: 'true', many: ['b'] } });
  assert.equal(run.status, 201, JSON.stringify(run.body));
  assert.equal(run.body.job_result.status.value, 'PENDING');
  const made = await call('POST', '/api/dcim/manufacturers/', { name: 'Queued before any runner' });
  assert.equal(made.status, 201, JSON.stringify(made.body));

  await startWorker();
  await receiver.next(1);
  assert.equal(receiver.received[0].json.data.name, 'Queued before any runner');
  for (;;) {
    const result = (await call('GET', `/api/extras/job-results/${run.body.job_result.id}/`)).body;
    if (result.status.value !== 'PENDING' && result.status.value !== 'STARTED') {
      assert.equal(result.status.value, 'SUCCESS', JSON.stringify(result));
      break;
    }
    // The worker is another process: its result is looked at again until it is final.
    await setTimeout(200);
  }
});
