import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { loadConfig } from '../../src/core/config.js';
import { makeApp, create } from '../helpers/app.js';
import { Receiver } from '../helpers/receiver.js';
import { writeTransaction } from '../../src/ops/write/transaction.js';
import { persist } from '../../src/ops/write/persist.js';
import { queueEvents } from '../../src/queue/index.js';
import type { TestApp } from '../helpers/app.js';

let t: TestApp;
let receiver: Receiver;

const WEBHOOK_SETTINGS = { allowedHosts: ['127.0.0.1'], additionalBlockedNetworks: [], allowedSchemes: ['http', 'https'], maxAttempts: 3, retryBackoffMs: 20 };

before(async () => {
  receiver = new Receiver();
  await receiver.listen();
  // 16 deliveries in flight (default 4): the 1000-event test waits on database round trips, not CPU, on PostgreSQL.
  t = await makeApp({ webhooks: WEBHOOK_SETTINGS, queue: { ...loadConfig({}).queue, concurrency: 16 } });
});

after(async () => {
  await t.close();
  await receiver.close();
});

/** A webhook on manufacturers (all actions unless said otherwise) to the receiver. */
async function webhook(name: string, extra: Record<string, unknown> = {}): Promise<any> {
  return create(t, '/api/extras/webhooks/', { name, content_types: ['dcim.manufacturer'], type_create: true, type_update: true, type_delete: true, payload_url: receiver.url, ...extra });
}

async function withoutWebhooks(): Promise<void> {
  const all = await t.call('GET', '/api/extras/webhooks/?limit=0');
  if (all.body.results.length) await t.call('DELETE', '/api/extras/webhooks/', all.body.results.map((w: { id: string }) => ({ id: w.id })));
}

test('create, update and delete each send the reference payload, signed with the secret', async () => {
  await webhook('signed', { secret: 's3cret' });
  const start = receiver.received.length;
  const made = await create(t, '/api/dcim/manufacturers/', { name: 'Acme' });
  await receiver.next(start + 1);
  assert.equal((await t.call('PATCH', `/api/dcim/manufacturers/${made.id}/`, { description: 'anvils' })).status, 200);
  await receiver.next(start + 2);
  assert.equal((await t.call('DELETE', `/api/dcim/manufacturers/${made.id}/`)).status, 204);
  await receiver.next(start + 3);
  const [created, updated, deleted] = receiver.received.slice(start);
  for (const got of [created, updated, deleted]) {
    assert.equal(got.method, 'POST');
    assert.equal(got.headers['content-type'], 'application/json');
    assert.equal(got.headers['x-hook-signature'], createHmac('sha512', 's3cret').update(got.raw).digest('hex'));
    assert.deepEqual(Object.keys(got.json), ['event', 'timestamp', 'model', 'username', 'request_id', 'data', 'snapshots']);
    assert.equal(got.json.model, 'manufacturer');
    assert.equal(got.json.username, 'admin');
    assert.match(got.json.timestamp, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{6})?\+00:00$/);
    assert.equal(got.json.data.id, made.id);
    // Python's json.dumps separators: the signature covers these exact bytes.
    assert.ok(got.raw.toString().startsWith('{"event": "'));
  }
  assert.deepEqual([created.json.event, updated.json.event, deleted.json.event], ['created', 'updated', 'deleted']);
  const changes = await t.call('GET', `/api/extras/object-changes/?changed_object_id=${made.id}`);
  const byAction = new Map(changes.body.results.map((c: any) => [c.action.value ?? c.action, c]));
  assert.equal(created.json.request_id, (byAction.get('create') as any).request_id);
  assert.deepEqual(created.json.data, (byAction.get('create') as any).object_data_v2);
  assert.deepEqual(created.json.snapshots, { prechange: null, postchange: created.json.data, differences: { removed: null, added: created.json.data } });
  assert.equal(updated.json.data.description, 'anvils');
  assert.deepEqual(updated.json.snapshots.prechange, created.json.data);
  assert.equal(updated.json.snapshots.differences.added.description, 'anvils');
  assert.equal(updated.json.snapshots.differences.removed.description, '');
  assert.ok(!('last_updated' in updated.json.snapshots.differences.added));
  assert.deepEqual(deleted.json.snapshots, { prechange: updated.json.data, postchange: null, differences: { removed: updated.json.data, added: null } });
  await withoutWebhooks();
});

test('body_template, additional_headers, http_method and http_content_type render with the template engine', async () => {
  await webhook('templated', {
    type_update: false, type_delete: false, http_method: 'PUT', http_content_type: 'text/plain',
    body_template: 'name={{ data.name }} event={{ event }} model={{ model }}', additional_headers: 'X-Model: {{ model }}\nX-Event: {{ event|upper }}',
  });
  const start = receiver.received.length;
  await create(t, '/api/dcim/manufacturers/', { name: 'Templated' });
  await receiver.next(start + 1);
  const got = receiver.received[start];
  assert.equal(got.method, 'PUT');
  assert.equal(got.headers['content-type'], 'text/plain');
  assert.equal(got.headers['x-model'], 'manufacturer');
  assert.equal(got.headers['x-event'], 'CREATED');
  assert.equal(got.headers['x-hook-signature'], undefined);
  assert.equal(got.raw.toString(), 'name=Templated event=created model=manufacturer');
  await withoutWebhooks();
});

/** The job result of the delivery with the webhook's log entries, once it has ended (SUCCESS or FAILURE). */
async function deliveryOutcome(webhookName: string): Promise<{ result: any; logs: any[] }> {
  const events = queueEvents(t.app.services);
  for (;;) {
    const attempted = new Promise<void>((resolve) => events.once('attempt', () => resolve()));
    const logs = await t.call('GET', `/api/extras/job-logs/?limit=0`);
    const mine = logs.body.results.filter((l: any) => l.log_object === webhookName).map((l: any) => ({ ...l, log_level: l.log_level?.value ?? l.log_level }));
    const ended = mine.find((l: any) => l.log_level === 'success' || l.log_level === 'failure');
    if (ended) {
      const result = await t.call('GET', `/api/extras/job-results/${ended.job_result.id}/`);
      return { result: result.body, logs: mine.filter((l: any) => l.job_result.id === ended.job_result.id) };
    }
    await attempted;
  }
}

test('a failing receiver is retried with backoff; every attempt is visible as job log entries of the delivery\'s job result', async () => {
  await webhook('flaky', { type_update: false, type_delete: false });
  const start = receiver.received.length;
  receiver.answer = (_req, index) => (index < start + 2 ? 500 : 200);
  await create(t, '/api/dcim/manufacturers/', { name: 'Flaky' });
  await receiver.next(start + 3);
  const { result, logs } = await deliveryOutcome('flaky');
  receiver.answer = () => 200;
  assert.equal(result.status.value, 'SUCCESS');
  assert.equal(result.name, 'nautobot.extras.tasks.process_webhook');
  assert.equal(result.result, 'Status 200 returned, webhook successfully processed.');
  const failures = logs.filter((l) => l.log_level === 'warning').map((l) => l.message);
  assert.equal(failures.length, 2);
  assert.match(failures[0], /^Attempt 1 of 3 failed: Status 500 returned with content 'nope', webhook FAILED to process\.$/);
  assert.equal(logs.filter((l) => l.log_level === 'success').length, 1);
  await withoutWebhooks();
});

test('attempts are bounded: a receiver that always fails ends in FAILURE after WEBHOOK_MAX_ATTEMPTS', async () => {
  await webhook('broken', { type_update: false, type_delete: false });
  const start = receiver.received.length;
  receiver.answer = () => 503;
  await create(t, '/api/dcim/manufacturers/', { name: 'Broken' });
  const { result, logs } = await deliveryOutcome('broken');
  receiver.answer = () => 200;
  assert.equal(result.status.value, 'FAILURE');
  assert.equal(receiver.received.length - start, 3);
  assert.deepEqual(logs.filter((l) => l.message.includes('failed')).map((l) => l.log_level), ['warning', 'warning', 'failure']);
  await withoutWebhooks();
});

test('a write that rolls back sends nothing', async () => {
  await webhook('rollback', { type_update: false, type_delete: false });
  const start = receiver.received.length;
  const services = t.app.services;
  const model = services.registry.get('dcim.manufacturer');
  const rc = { actor: null, requestId: '00000000-0000-4000-8000-000000000000', baseUrl: 'http://x', routeName: 'test' };
  await assert.rejects(writeTransaction(services, model, async (trx) => {
    await persist(services, trx, rc, model, [{ input: { name: 'Ghost' } }], { partial: false, asList: false });
    throw new Error('rolled back on purpose');
  }), /rolled back on purpose/);
  await create(t, '/api/dcim/manufacturers/', { name: 'Real' });
  await receiver.next(start + 1);
  // The write after it is delivered, and it was the only one published since.
  assert.deepEqual(receiver.received.slice(start).map((r) => r.json.data.name), ['Real']);
  const queued = await services.dialect.db.selectFrom('inventory_queue').select('payload').execute();
  assert.ok(!queued.some((q) => String(q.payload).includes('Ghost')));
  await withoutWebhooks();
});

test('URL safety: a blocked address is refused on save (400), a blocked name at delivery', async () => {
  const refused = await t.call('POST', '/api/extras/webhooks/', { name: 'metadata', content_types: ['dcim.manufacturer'], type_create: true, payload_url: 'http://169.254.169.254/latest/' });
  assert.equal(refused.status, 400);
  assert.deepEqual(refused.body, { payload_url: ["Webhook URL host '169.254.169.254' is not permitted (resolves to a reserved/loopback/link-local address)."] });
  // A name is not looked up on save; at delivery it resolves to loopback, which only the literal 127.0.0.1 is allowed.
  await webhook('by-name', { type_update: false, type_delete: false, payload_url: `http://localhost:${receiver.port}/hook` });
  const start = receiver.received.length;
  await create(t, '/api/dcim/manufacturers/', { name: 'Named' });
  const { result } = await deliveryOutcome('by-name');
  assert.equal(result.status.value, 'FAILURE');
  assert.match(result.result, /blocked: Webhook URL host 'localhost' is not permitted/);
  assert.equal(receiver.received.length, start);
  await withoutWebhooks();
});

test('a bulk create of 1000 objects sends 1000 events', async () => {
  await webhook('bulk', { type_update: false, type_delete: false });
  const start = receiver.received.length;
  const body = Array.from({ length: 1000 }, (_, i) => ({ name: `Bulk ${i}` }));
  const res = await t.call('POST', '/api/dcim/manufacturers/', body);
  assert.equal(res.status, 201);
  await receiver.next(start + 1000);
  const names = new Set(receiver.received.slice(start).map((r) => r.json.data.name));
  assert.equal(names.size, 1000);
  await withoutWebhooks();
});
