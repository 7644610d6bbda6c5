import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import http from 'node:http';
import { TOKEN } from '../helpers/app.js';
import { freshDatabase, waitForHealth } from '../helpers/server.js';
import { freePort, spawnWorker } from '../helpers/worker-process.js';
import type { WorkerProcess } from '../helpers/worker-process.js';
import type { ChildProcess } from 'node:child_process';
import type { AddressInfo } from 'node:net';

// SIGTERM to an `inventory worker`: it claims nothing more, lets running deliveries finish within
// QUEUE_STOP_GRACE_MS, and releases those still running after it (made again by the next worker).
let PORT = 0;
let BASE = '';
let db: { url: string; drop: () => Promise<void> };
let server: ChildProcess;
let receiver: http.Server;
/** Deliveries by manufacturer name: the answer to send, and whether the sender hung up first. */
const deliveries: { name: string; answer: (status: number) => void; aborted: Promise<boolean> }[] = [];
let arrived: (() => void) | null = null;

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, DATABASE_URL: db.url, PORT: String(PORT), HOST: '127.0.0.1', LOG_LEVEL: 'warn', SUPERUSER_NAME: 'admin', SUPERUSER_API_TOKEN: TOKEN,
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', QUEUE_POLL_MS: '300', WEBHOOK_RETRY_BACKOFF_MS: '0', ...extra };
}

/** An `inventory worker` with QUEUE_STOP_GRACE_MS = `graceMs`; resolves once it runs. */
function startWorker(graceMs: number): Promise<WorkerProcess> {
  return spawnWorker(env({ QUEUE_STOP_GRACE_MS: String(graceMs) }));
}

/** A worker's exit code after SIGTERM, with its output when it ended otherwise (for the failure message). */
async function exitCode(worker: WorkerProcess): Promise<number | string | null> {
  const end = await worker.exited;
  return end.code ?? `${end.signal}: ${end.output}`;
}

function nextDelivery(count: number): Promise<void> {
  return deliveries.length >= count ? Promise.resolve() : new Promise<void>((resolve) => { arrived = () => { if (deliveries.length >= count) resolve(); }; });
}

async function call(method: string, url: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${BASE}${url}`, { method, headers: { authorization: `Token ${TOKEN}`, 'content-type': 'application/json', accept: 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: await res.json().catch(() => undefined) };
}

before(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const aborted = new Promise<boolean>((resolve) => res.on('close', () => resolve(!res.writableFinished)));
      deliveries.push({ name: JSON.parse(Buffer.concat(chunks).toString()).data.name, answer: (status) => res.writeHead(status).end('ok'), aborted });
      arrived?.();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  db = await freshDatabase();
  PORT = await freePort();
  BASE = `http://127.0.0.1:${PORT}`;
  server = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], { env: env({ QUEUE_EMBEDDED: 'false' }), stdio: 'ignore' });
  await waitForHealth(BASE, server);
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`;
  assert.equal((await call('POST', '/api/extras/webhooks/', { name: 'graceful', content_types: ['dcim.manufacturer'], type_create: true, payload_url: url })).status, 201);
});

after(async () => {
  if (server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGKILL');
    await exited;
  }
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  await db.drop();
});

test('a worker stopped with SIGTERM lets the delivery it runs finish, then exits', async () => {
  const worker = await startWorker(600_000);
  assert.equal((await call('POST', '/api/dcim/manufacturers/', { name: 'Finishes' })).status, 201);
  await nextDelivery(1);
  worker.child.kill('SIGTERM');
  await worker.said('worker stopping');
  deliveries[0].answer(200);
  assert.equal(await exitCode(worker), 0);
  assert.equal(await deliveries[0].aborted, false);
  const results = await call('GET', '/api/extras/job-results/?name=nautobot.extras.tasks.process_webhook&limit=0');
  assert.deepEqual(results.body.results.map((r: any) => r.status.value), ['SUCCESS']);
});

test('a delivery still running when the grace period ends is released and made by the next worker', async () => {
  const worker = await startWorker(200);
  assert.equal((await call('POST', '/api/dcim/manufacturers/', { name: 'Released' })).status, 201);
  await nextDelivery(2);
  worker.child.kill('SIGTERM');
  assert.equal(await exitCode(worker), 0);
  assert.equal(await deliveries[1].aborted, true);
  const next = await startWorker(600_000);
  await nextDelivery(3);
  assert.equal(deliveries[2].name, 'Released');
  deliveries[2].answer(200);
  next.child.kill('SIGTERM');
  assert.equal(await exitCode(next), 0);
  const logs = await call('GET', '/api/extras/job-logs/?limit=0');
  const messages = logs.body.results.filter((l: any) => l.log_object === 'graceful').map((l: any) => l.message);
  assert.ok(messages.some((m: string) => m.includes('(worker stopping: the attempt will be made again)')), JSON.stringify(messages));
});

test('a server with the embedded queue stopped with SIGTERM lets the delivery it runs finish, then exits', async () => {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], { env: env({ PORT: String(port), QUEUE_STOP_GRACE_MS: '600000' }), stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  let out = '';
  let stopping: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => { stopping = resolve; });
  child.stdout!.on('data', (chunk) => {
    out += String(chunk);
    if (out.includes('SIGTERM: stopping')) stopping();
  });
  await waitForHealth(`http://127.0.0.1:${port}`, child);
  assert.equal((await call('POST', '/api/dcim/manufacturers/', { name: 'Server finishes' })).status, 201);
  await nextDelivery(4);
  assert.equal(deliveries[3].name, 'Server finishes');
  child.kill('SIGTERM');
  await stopped;
  deliveries[3].answer(200);
  assert.equal(await exited, 0);
  assert.equal(await deliveries[3].aborted, false);
});

test('a worker signalled the moment it says it runs still stops gracefully', async () => {
  // It listens for signals before it says so (a signal before the first listener ends a process at once).
  for (let i = 0; i < 3; i++) {
    const worker = await startWorker(0);
    worker.child.kill('SIGTERM');
    assert.equal(await exitCode(worker), 0);
    assert.match(worker.output(), /worker stopped/);
  }
});
