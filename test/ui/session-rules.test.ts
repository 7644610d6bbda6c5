import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeApp } from '../helpers/app.js';
import { Browser, setCookies } from '../helpers/session.js';
import { makeUser } from '../helpers/users.js';
import type { TestApp } from '../helpers/app.js';

let t: TestApp;
before(async () => {
  t = await makeApp({ sessionCookieAge: 3600 });
});
after(async () => t.close());

/** A login form posted from a given client address (its own cookies: a browser on that machine). */
async function loginFrom(address: string, username: string, password: string) {
  const page = await t.app.inject({ method: 'GET', url: '/login/', remoteAddress: address });
  const csrf = setCookies(page).get('csrftoken')?.value ?? '';
  const payload = new URLSearchParams({ csrfmiddlewaretoken: csrf, username, password }).toString();
  return t.app.inject({ method: 'POST', url: '/login/', payload, remoteAddress: address, headers: { cookie: `csrftoken=${csrf}`, 'content-type': 'application/x-www-form-urlencoded' } });
}

describe('login throttling per address and username', () => {
  it('should refuse the guessed username from the guessing address only, never lock its owner out elsewhere', async () => {
    const user = await makeUser(t, 'victim');
    for (let i = 0; i < 5; i += 1) assert.equal((await loginFrom('203.0.113.7', 'victim', 'guess')).statusCode, 200);
    const blocked = await loginFrom('203.0.113.7', 'victim', user.password);
    assert.equal(blocked.statusCode, 429);
    assert.match(blocked.body, /Too many failed login attempts/);
    const owner = await loginFrom('198.51.100.20', 'victim', user.password);
    assert.equal(owner.statusCode, 302, 'the owner logs in from another address');
    assert.equal((await loginFrom('203.0.113.7', 'victim', user.password)).statusCode, 429, 'a login elsewhere does not reset the guesser\'s count');
  });

  it('should still refuse an address trying many usernames', async () => {
    for (let i = 0; i < 20; i += 1) await loginFrom('203.0.113.99', `nobody-${i}`, 'guess');
    const other = await makeUser(t, 'sprayed');
    assert.equal((await loginFrom('203.0.113.99', 'sprayed', other.password)).statusCode, 429);
    assert.equal((await loginFrom('198.51.100.21', 'sprayed', other.password)).statusCode, 302);
  });
});

describe('session lifetime', () => {
  it('should last SESSION_COOKIE_AGE seconds from login, cookie and stored expiry alike', async () => {
    const b = new Browser(t);
    const res = await b.login();
    assert.equal(res.status, 302);
    assert.ok(setCookies(res).get('sessionid')?.attrs.includes('Max-Age=3600'));
    const row = await t.app.services.dialect.db.selectFrom('inventory_session').select(['created', 'expires']).orderBy('created', 'desc').executeTakeFirstOrThrow();
    assert.equal(Date.parse(String(row.expires)) - Date.parse(String(row.created)), 3600 * 1000);
  });

  it('should send an expired session to the login page', async () => {
    const b = new Browser(t);
    await b.login();
    assert.equal((await b.get('/dcim/devices/')).status, 200);
    await t.app.services.dialect.db.updateTable('inventory_session').set({ expires: new Date(Date.now() - 1000).toISOString() }).execute();
    const res = await b.get('/dcim/devices/');
    assert.equal(res.status, 302);
    assert.match(String(res.headers.location), /^\/login\/\?next=/);
  });
});

describe('CSRF refusal of a browser form', () => {
  it('should answer a form without its token with the 403 page, and the API with its JSON', async () => {
    const b = new Browser(t);
    await b.login();
    const res = await b.form('/dcim/locations/add/', { name: 'x' }, { csrf: null });
    assert.equal(res.status, 403);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.match(res.raw, /<h1>Invalid form submission<\/h1>/);
    assert.match(res.raw, /<strong id="csrf-reason">CSRF token missing.<\/strong>/);
    const wrong = await b.form('/dcim/locations/add/', { name: 'x' }, { csrf: 'y'.repeat(32) });
    assert.match(wrong.raw, /CSRF token from POST incorrect./);
    const api = await b.api('POST', '/api/dcim/location-types/', { name: 'T' }, { csrf: null });
    assert.deepEqual([api.status, api.body], [403, { detail: 'CSRF Failed: CSRF token missing.' }]);
  });
});
