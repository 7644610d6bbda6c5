import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { DB_URL, TOKEN } from '../helpers/app.js';
import { Receiver } from '../helpers/receiver.js';
import { freshDatabase, waitForHealth } from '../helpers/server.js';
import { freePort, spawnWorker, stopProcess } from '../helpers/worker-process.js';
import type { ChildProcess } from 'node:child_process';

// Two real `inventory worker` processes on the pg-boss engine (PostgreSQL only): the API process
// runs no queue (QUEUE_EMBEDDED=false); the workers publish the outbox and deliver webhooks.
const onPostgres = DB_URL.startsWith('postgres');
let PORT = 0;
let BASE = '';
let receiver: Receiver;
let db: { url: string; drop: () => Promise<void> };
let server: ChildProcess;
const children = new Set<ChildProcess>();

function env(): NodeJS.ProcessEnv {
  return { ...process.env, DATABASE_URL: db.url, PORT: String(PORT), HOST: '127.0.0.1', LOG_LEVEL: 'warn', SUPERUSER_NAME: 'admin', SUPERUSER_API_TOKEN: TOKEN,
    QUEUE_ENGINE: 'pg-boss', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', QUEUE_LEASE_MS: '3000', QUEUE_POLL_MS: '500', WEBHOOK_RETRY_BACKOFF_MS: '500', QUEUE_STOP_GRACE_MS: '5000' };
}

/** An `inventory worker` process; resolves once it says it runs. */
async function startWorker(): Promise<ChildProcess> {
  const { child } = await spawnWorker(env());
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

async function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<number | null> {
  return (await stopProcess(child, signal)).code;
}

async function call(method: string, url: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${BASE}${url}`, { method, headers: { authorization: `Token ${TOKEN}`, 'content-type': 'application/json', accept: 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: await res.json().catch(() => undefined) };
}

const deliveriesOf = (name: string) => receiver.received.filter((r) => r.json?.data?.name === name).length;

before(async () => {
  if (!onPostgres) return;
  receiver = new Receiver();
  await receiver.listen();
  db = await freshDatabase();
  PORT = await freePort();
  BASE = `http://127.0.0.1:${PORT}`;
  server = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], { env: { ...env(), QUEUE_EMBEDDED: 'false' }, stdio: 'ignore' });
  children.add(server);
  await waitForHealth(BASE, server);
});

after(async () => {
  if (!onPostgres) return;
  for (const child of [...children]) await stop(child, 'SIGKILL');
  await receiver.close();
  await db.drop();
});

test('two workers deliver every webhook of a bulk create, none lost; /api/status/ counts them', { skip: !onPostgres }, async () => {
  const workers = [await startWorker(), await startWorker()];
  const status = await call('GET', '/api/status/');
  assert.equal(status.body['celery-workers-running'], 2);
  const hook = await call('POST', '/api/extras/webhooks/', { name: 'workers', content_types: ['dcim.manufacturer'], type_create: true, payload_url: receiver.url });
  assert.equal(hook.status, 201, JSON.stringify(hook.body));
  const names = Array.from({ length: 100 }, (_, i) => `m-${i}`);
  const made = await call('POST', '/api/dcim/manufacturers/', names.map((name) => ({ name })));
  assert.equal(made.status, 201);
  await receiver.next(100);
  assert.deepEqual(new Set(receiver.received.map((r) => r.json.data.name)), new Set(names));
  // A worker stopped with SIGTERM ends cleanly.
  assert.equal(await stop(workers[1], 'SIGTERM'), 0);
});

test('a delivery in flight on a worker killed with SIGKILL is made again by the other worker', { skip: !onPostgres }, async () => {
  const [first] = [...children].filter((c) => c !== server);
  // The first delivery of 'In flight' hangs; later ones are answered.
  receiver.answer = (req) => (req.json?.data?.name === 'In flight' && deliveriesOf('In flight') === 0 ? null : 200);
  assert.equal((await call('POST', '/api/dcim/manufacturers/', { name: 'In flight' })).status, 201);
  while (deliveriesOf('In flight') === 0) await receiver.next(receiver.received.length + 1);
  await startWorker();
  await stop(first, 'SIGKILL');
  while (deliveriesOf('In flight') < 2) await receiver.next(receiver.received.length + 1);
  assert.equal(deliveriesOf('In flight'), 2);
});
