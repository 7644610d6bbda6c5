import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeApp } from '../helpers/app.js';
import { makeUser } from '../helpers/users.js';
import type { TestApp } from '../helpers/app.js';

let t: TestApp;
before(async () => {
  t = await makeApp();
});
after(() => t.close());

// pynautobot's `nb.plugins.installed_plugins()` sends exactly this request and reads a list.
describe('GET /api/plugins/installed-plugins/ and /api/apps/installed-apps/', () => {
  for (const path of ['/api/plugins/installed-plugins/', '/api/apps/installed-apps/']) {
    it(`should answer an empty list to a staff user (${path})`, async () => {
      const res = await t.call('GET', path, undefined, { headers: { accept: 'application/json;' } });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, []);
      assert.equal(res.headers.allow, 'GET, HEAD, OPTIONS');
    });

    it(`should refuse users who are not staff, and anonymous requests (${path})`, async () => {
      const user = await makeUser(t, `plain-${path.length}`);
      assert.deepEqual(await user.call('GET', path).then((r) => [r.status, r.body]), [403, { detail: 'You do not have permission to perform this action.' }]);
      assert.deepEqual(await t.call('GET', path, undefined, { token: null }).then((r) => [r.status, r.body]), [403, { detail: 'Authentication credentials were not provided.' }]);
    });

    it(`should refuse writes with 405 (${path})`, async () => {
      const res = await t.call('POST', path, {});
      assert.equal(res.status, 405);
      assert.deepEqual(res.body, { detail: 'Method "POST" not allowed.' });
    });
  }
});
