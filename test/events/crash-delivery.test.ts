import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { TOKEN } from '../helpers/app.js';
import { Receiver } from '../helpers/receiver.js';
import { freshDatabase, waitForHealth } from '../helpers/server.js';
import type { ChildProcess } from 'node:child_process';

// A port of its own per run (other test runs on the machine use theirs); the same one for every life of the server.
const PORT = 20000 + Math.floor(Math.random() * 20000);
const BASE = `http://127.0.0.1:${PORT}`;
let receiver: Receiver;
let db: { url: string; drop: () => Promise<void> };

/** A server process on the test database; `embedded` says whether it runs the queue (and publishes the outbox). */
async function startServer(embedded: boolean): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: { ...process.env, DATABASE_URL: db.url, PORT: String(PORT), HOST: '127.0.0.1', LOG_LEVEL: 'warn', SUPERUSER_NAME: 'admin', SUPERUSER_API_TOKEN: TOKEN,
      QUEUE_EMBEDDED: embedded ? 'true' : 'false', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', QUEUE_LEASE_MS: '3000', QUEUE_POLL_MS: '500' },
    stdio: 'ignore',
  });
  await waitForHealth(BASE, child);
  return child;
}

async function kill(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}

async function call(method: string, url: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${BASE}${url}`, { method, headers: { authorization: `Token ${TOKEN}`, 'content-type': 'application/json', accept: 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: await res.json().catch(() => undefined) };
}

before(async () => {
  receiver = new Receiver();
  await receiver.listen();
  db = await freshDatabase();
});

after(async () => {
  await receiver.close();
  await db.drop();
});

test('a server killed with SIGKILL right after a write commits delivers the webhook when it starts again', async () => {
  // First life: the write commits, and nothing of this process delivers it (its queue is off).
  const first = await startServer(false);
  try {
    const hook = await call('POST', '/api/extras/webhooks/', { name: 'crash', content_types: ['dcim.manufacturer'], type_create: true, payload_url: receiver.url });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
    const made = await call('POST', '/api/dcim/manufacturers/', { name: 'Survivor' });
    assert.equal(made.status, 201);
  } finally {
    await kill(first, 'SIGKILL');
  }
  assert.equal(receiver.received.length, 0);
  // Second life: the outbox row committed with the write is published and delivered.
  const second = await startServer(true);
  try {
    await receiver.next(1);
    assert.equal(receiver.received[0].json.event, 'created');
    assert.equal(receiver.received[0].json.data.name, 'Survivor');
  } finally {
    await kill(second, 'SIGTERM');
  }
});

test('a delivery in flight when the server is killed is made again after restart (its lease runs out)', async () => {
  const start = receiver.received.length;
  const inFlight = () => receiver.received.filter((r) => r.json?.data?.name === 'In flight').length;
  // The first delivery of 'In flight' hangs (at least once: an earlier delivery may come again meanwhile).
  receiver.answer = (req) => (req.json?.data?.name === 'In flight' && inFlight() === 0 ? null : 200);
  const first = await startServer(true);
  try {
    assert.equal((await call('POST', '/api/dcim/manufacturers/', { name: 'In flight' })).status, 201);
    while (inFlight() === 0) await receiver.next(receiver.received.length + 1);
  } finally {
    await kill(first, 'SIGKILL');
  }
  const second = await startServer(true);
  try {
    while (inFlight() < 2) await receiver.next(receiver.received.length + 1);
    assert.equal(receiver.received.slice(start).filter((r) => r.json.data.name === 'In flight').length, 2);
  } finally {
    await kill(second, 'SIGTERM');
  }
});
