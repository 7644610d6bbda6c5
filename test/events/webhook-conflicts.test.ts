import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeApp, create } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';

// The reference's Webhook.check_for_conflicts (WebhookSerializer.validate): one webhook per
// content type, payload URL and action.
let t: TestApp;
const URL_A = 'http://127.0.0.1:9/hook';

before(async () => {
  t = await makeApp({ webhooks: { allowedHosts: ['127.0.0.1'], additionalBlockedNetworks: [], allowedSchemes: ['http', 'https'], maxAttempts: 1, retryBackoffMs: 0 } });
});

after(async () => {
  await t.close();
});

const hook = (name: string, extra: Record<string, unknown>) => ({ name, payload_url: URL_A, content_types: ['dcim.manufacturer'], ...extra });

test('a webhook sharing a content type, the URL and an action with another is refused with the reference\'s messages', async () => {
  const first = await create(t, '/api/extras/webhooks/', hook('first', { content_types: ['dcim.manufacturer', 'dcim.platform'], type_create: true, type_update: true }));
  const clash = await t.call('POST', '/api/extras/webhooks/', hook('clash', { type_create: true, type_delete: true }));
  assert.equal(clash.status, 400, clash.raw);
  assert.deepEqual(clash.body, { type_create: [`A webhook already exists for create on dcim | manufacturer to URL ${URL_A}`] });
  const both = await t.call('POST', '/api/extras/webhooks/', hook('both', { content_types: ['dcim.manufacturer', 'dcim.platform'], type_create: true, type_update: true }));
  assert.equal(both.status, 400);
  assert.deepEqual(both.body, {
    type_create: [`A webhook already exists for create on dcim | manufacturer to URL ${URL_A}`, `A webhook already exists for create on dcim | platform to URL ${URL_A}`],
    type_update: [`A webhook already exists for update on dcim | manufacturer to URL ${URL_A}`, `A webhook already exists for update on dcim | platform to URL ${URL_A}`],
  });
  // No action in common, another content type, another URL: accepted; a webhook never conflicts with itself.
  assert.equal((await t.call('POST', '/api/extras/webhooks/', hook('deletes', { type_delete: true }))).status, 201);
  const other = await create(t, '/api/extras/webhooks/', hook('other type', { content_types: ['dcim.location'], type_create: true }));
  assert.equal((await t.call('POST', '/api/extras/webhooks/', hook('other url', { payload_url: 'http://127.0.0.1:9/other', type_create: true }))).status, 201);
  assert.equal((await t.call('PATCH', `/api/extras/webhooks/${first.id}/`, { type_delete: false, description: 'same' })).status, 200);
  // A PATCH is checked with the stored values it does not change.
  const moved = await t.call('PATCH', `/api/extras/webhooks/${other.id}/`, { content_types: ['dcim.platform'] });
  assert.equal(moved.status, 400);
  assert.deepEqual(moved.body, { type_create: [`A webhook already exists for create on dcim | platform to URL ${URL_A}`] });
  const deletes = await t.call('PATCH', `/api/extras/webhooks/${other.id}/`, { content_types: ['dcim.manufacturer'], type_create: false, type_delete: true });
  assert.equal(deletes.status, 400);
  assert.deepEqual(deletes.body, { type_delete: [`A webhook already exists for delete on dcim | manufacturer to URL ${URL_A}`] });
});
