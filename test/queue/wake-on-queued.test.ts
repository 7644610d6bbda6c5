import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/core/config.js';
import { backgroundOf } from '../../src/background.js';
import { publishedListeners } from '../../src/events/publisher.js';
import { makeApp, create } from '../helpers/app.js';
import { Receiver } from '../helpers/receiver.js';
import type { TestApp } from '../helpers/app.js';

/**
 * The embedded runner looks for queue rows after a write only when the write (or its
 * publication) queued some: a write that queues nothing costs no claim, and one that queues a
 * webhook delivery still has it delivered at once, not at the next poll (an hour away here).
 */
let t: TestApp;
let receiver: Receiver;
let claims = 0;

before(async () => {
  receiver = new Receiver();
  await receiver.listen();
  const webhooks = { allowedHosts: ['127.0.0.1'], additionalBlockedNetworks: [], allowedSchemes: ['http', 'https'], maxAttempts: 3, retryBackoffMs: 20 };
  t = await makeApp({ webhooks, queue: { ...loadConfig({}).queue, pollMs: 3_600_000 } });
  const backend = (backgroundOf(t.app.services)!.runner as unknown as { backend: { claim: (...args: unknown[]) => Promise<unknown[]> } }).backend;
  const claim = backend.claim.bind(backend);
  backend.claim = (...args) => {
    claims += 1;
    return claim(...args);
  };
});

after(async () => {
  await t.close();
  await receiver.close();
});

test('writes that queue nothing make the runner claim nothing', async () => {
  const before = claims;
  for (let i = 0; i < 5; i += 1) {
    const done = new Promise<void>((resolve) => publishedListeners(t.app.services).add(resolve));
    await create(t, '/api/tenancy/tenants/', { name: `quiet ${i}` });
    await done;
  }
  // A turn for any wake scheduled after the last publication.
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(claims - before, 0);
});

test('a write whose publication queues a delivery wakes the runner at once', async () => {
  await create(t, '/api/extras/webhooks/', { name: 'hook', content_types: ['tenancy.tenant'], type_create: true, payload_url: receiver.url });
  const start = receiver.received.length;
  const before = claims;
  await create(t, '/api/tenancy/tenants/', { name: 'announced' });
  await receiver.next(start + 1);
  assert.equal(receiver.received[start].json.data.name, 'announced');
  assert.ok(claims - before >= 1);
});
