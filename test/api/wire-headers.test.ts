import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeApp } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';

let t: TestApp;
before(async () => { t = await makeApp(); });
after(() => t.close());

const LIST = 'GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS';

describe('Content-Type as the reference sends it', () => {
  it('should send bare application/json on creates, OPTIONS, roots and errors', async () => {
    const created = await t.call('POST', '/api/dcim/manufacturers/', { name: 'Acme' });
    const refused = await t.call('POST', '/api/dcim/manufacturers/', {});
    for (const res of [created, refused, await t.call('OPTIONS', '/api/dcim/manufacturers/'), await t.call('GET', '/api/'), await t.call('GET', '/api/dcim/manufacturers/')]) {
      assert.equal(res.headers['content-type'], 'application/json');
    }
    assert.deepEqual([created.status, refused.status], [201, 400]);
  });
});

describe('Allow as DRF lists a view\'s methods', () => {
  it('should list TRACE on path endpoints (their viewsets have a trace action), not on other models', async () => {
    assert.equal((await t.call('GET', '/api/dcim/interfaces/')).headers.allow, `${LIST}, TRACE`);
    assert.equal((await t.call('OPTIONS', '/api/circuits/circuit-terminations/')).headers.allow, `${LIST}, TRACE`);
    assert.equal((await t.call('GET', '/api/dcim/front-ports/')).headers.allow, LIST);
  });

  it('should send Allow on roots and status', async () => {
    for (const path of ['/api/', '/api/dcim/', '/api/status/']) assert.equal((await t.call('GET', path)).headers.allow, 'GET, HEAD, OPTIONS', path);
  });

  it('should send Allow on errors raised before the handler (authentication, version), but not on unknown paths', async () => {
    const anonymous = await t.call('GET', '/api/dcim/locations/', undefined, { token: null });
    const badVersion = await t.call('GET', '/api/dcim/locations/', undefined, { headers: { accept: 'application/json; version=9.9' } });
    assert.deepEqual([anonymous.status, anonymous.headers.allow], [403, LIST]);
    assert.deepEqual([badVersion.status, badVersion.headers.allow], [406, LIST]);
    assert.equal((await t.call('GET', '/api/dcim/locations/x/', undefined, { token: null })).headers.allow, 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS');
    assert.equal((await t.call('GET', '/api/dcim/anonymous-rooms/', undefined, { token: null })).headers.allow, undefined);
    assert.equal((await t.call('GET', '/api/dcim/', undefined, { token: null })).headers.allow, 'GET, HEAD, OPTIONS');
  });
});

describe('OPTIONS help_text', () => {
  it('should describe fields with the reference\'s help_text, after the label', async () => {
    const post = (await t.call('OPTIONS', '/api/dcim/locations/')).body.actions.POST;
    assert.deepEqual(post.display, { type: 'field', required: false, read_only: true, label: 'Display', help_text: 'Human friendly display value' });
    assert.deepEqual(Object.keys(post.asn), ['type', 'required', 'read_only', 'label', 'help_text', 'min_value', 'max_value']);
    assert.equal(post.asn.help_text, '32-bit autonomous system number');
    assert.equal(post.name.help_text, undefined);
  });
});

describe('API-Version where the reference sends none', () => {
  it('should leave it off the connection lists and connected-device, their errors too, and keep it on model lists', async () => {
    for (const path of ['/api/dcim/console-connections/', '/api/dcim/interface-connections/', '/api/dcim/power-connections/']) {
      const res = await t.call('GET', path);
      assert.deepEqual([res.status, res.headers['api-version']], [200, undefined], path);
    }
    const refused = await t.call('GET', '/api/dcim/connected-device/');
    assert.deepEqual([refused.status, refused.headers['api-version'], refused.headers.allow], [400, undefined, 'GET, HEAD, OPTIONS']);
    assert.equal((await t.call('GET', '/api/dcim/interfaces/')).headers['api-version'], '2.4');
  });
});
