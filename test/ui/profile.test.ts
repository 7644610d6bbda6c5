import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../helpers/app.js';
import { Browser } from '../helpers/session.js';
import type { TestApp } from '../helpers/app.js';

let t: TestApp;
before(async () => {
  t = await makeApp();
});
after(async () => t.close());

describe('/user/profile/', () => {
  it('should let a user without any permission create, use and revoke their own API tokens only', async () => {
    await create(t, '/api/users/users/', { username: 'plain', password: 'plain-secret-pw' });
    const others = (await t.call('GET', '/api/users/tokens/')).body.results.map((x: any) => x.id);
    const b = new Browser(t);
    assert.equal((await b.login('plain', 'plain-secret-pw')).status, 302);
    const empty = await b.get('/user/profile/');
    assert.match(empty.raw, /No tokens\./);
    const res = await b.form('/user/api-tokens/add/', { description: 'laptop', write_enabled: 'true' });
    assert.equal(res.status, 200);
    const key = res.raw.match(/<code id="new-token">([0-9a-f]{40})<\/code>/)?.[1];
    assert.ok(key, 'the new key is shown once');
    assert.equal((await t.call('GET', '/api/status/', undefined, { token: key })).status, 200);
    const page = await b.get('/user/profile/');
    assert.match(page.raw, /laptop/);
    assert.doesNotMatch(page.raw, new RegExp(key!), 'only the end of the key afterwards');
    const id = page.raw.match(/action="\/user\/api-tokens\/([0-9a-f-]{36})\/delete\/"/)?.[1];
    for (const other of others) assert.equal((await b.form(`/user/api-tokens/${other}/delete/`, {})).status, 404, 'another user\'s token');
    const revoked = await b.form(`/user/api-tokens/${id}/delete/`, {});
    assert.deepEqual([revoked.status, revoked.headers.location], [303, '/user/profile/']);
    assert.equal((await t.call('GET', '/api/status/', undefined, { token: key })).status, 403);
    assert.equal((await t.call('GET', '/api/users/tokens/')).body.count, others.length);
  });
});
