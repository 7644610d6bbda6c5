import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/api/app.js';
import { loadConfig } from '../../src/core/config.js';
import { DB_URL, makeApp } from '../helpers/app.js';
import { Browser, setCookies } from '../helpers/session.js';
import { makeUser } from '../helpers/users.js';
import type { TestApp } from '../helpers/app.js';

let t: TestApp;
before(async () => {
  t = await makeApp();
});
after(async () => t.close());

describe('GET /login/', () => {
  it('should render the form with username, password, next and a CSRF token set as a cookie', async () => {
    const b = new Browser(t);
    const res = await b.get('/login/?next=/dcim/devices/');
    assert.equal(res.status, 200);
    const csrf = setCookies(res).get('csrftoken');
    assert.ok(csrf && /^[A-Za-z0-9]{32}$/.test(csrf.value));
    assert.ok(csrf.attrs.includes('SameSite=Lax') && !csrf.attrs.includes('HttpOnly'), csrf.attrs.join(';'));
    assert.match(res.raw, /<input id="id_username" name="username"/);
    assert.match(res.raw, /<input id="id_password" name="password" type="password"/);
    assert.match(res.raw, new RegExp(`name="csrfmiddlewaretoken" value="${csrf.value}"`));
    assert.match(res.raw, /name="next" value="\/dcim\/devices\/"/);
    assert.equal(res.headers['x-frame-options'], 'DENY');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers['referrer-policy'], 'same-origin');
  });

  it('should send visitors who are not logged in from a page to the login page', async () => {
    const res = await new Browser(t).get('/');
    assert.deepEqual([res.status, res.headers.location], [302, '/login/?next=/']);
    const docs = await new Browser(t).get('/api/docs/');
    assert.deepEqual([docs.status, docs.headers.location], [302, '/login/?next=/api/docs/']);
  });
});

describe('POST /login/', () => {
  it('should refuse a form without the CSRF token', async () => {
    const b = new Browser(t);
    await b.get('/login/');
    const res = await b.form('/login/', { username: 'admin', password: 'admin-pass' }, { csrf: null });
    assert.equal(res.status, 403);
    assert.match(res.raw, /CSRF token missing/);
    const wrong = await b.form('/login/', { username: 'admin', password: 'admin-pass' }, { csrf: 'x'.repeat(32) });
    assert.equal(wrong.status, 403);
    assert.ok(!setCookies(wrong).has('sessionid'));
  });

  it('should show the error at the form for a wrong password and start no session', async () => {
    const b = new Browser(t);
    const res = await b.login('admin', 'wrong-password');
    assert.equal(res.status, 200);
    assert.match(res.raw, /Please enter a correct username and password/);
    assert.match(res.raw, /value="admin"/);
    assert.ok(!b.jar.has('sessionid'));
  });

  it('should start a session (HttpOnly, SameSite=Lax) and go to next', async () => {
    const b = new Browser(t);
    const res = await b.login('admin', 'admin-pass', '/dcim/devices/');
    assert.deepEqual([res.status, res.headers.location], [302, '/dcim/devices/']);
    const session = setCookies(res).get('sessionid')!;
    assert.ok(session.value.length >= 40);
    assert.ok(session.attrs.includes('HttpOnly') && session.attrs.includes('SameSite=Lax') && session.attrs.includes('Path=/'));
    assert.ok(!session.attrs.includes('Secure'), 'plain http: no Secure flag');
    assert.equal((await b.get('/')).status, 200);
  });

  it('should mark the cookies Secure when the request came over https', async () => {
    const b = new Browser(t);
    await b.get('/login/', { 'x-forwarded-proto': 'https' });
    const res = await b.form('/login/', { username: 'admin', password: 'admin-pass' }, { headers: { 'x-forwarded-proto': 'https' } });
    assert.equal(res.status, 302);
    assert.ok(setCookies(res).get('sessionid')!.attrs.includes('Secure'));
  });

  it('should never send the user to another site after login', async () => {
    for (const next of ['//evil.example/', 'https://evil.example/', '/\\evil.example']) {
      const res = await new Browser(t).login('admin', 'admin-pass', next);
      assert.equal(res.headers.location, '/', next);
    }
  });

  it('should refuse logins for a username after 5 failures, even with the right password', async () => {
    const user = await makeUser(t, 'throttled');
    const b = new Browser(t);
    for (let i = 0; i < 5; i += 1) assert.equal((await b.login('throttled', 'nope')).status, 200);
    const res = await b.login('throttled', user.password);
    assert.equal(res.status, 429);
    assert.match(res.raw, /Too many failed login attempts/);
    assert.ok(!b.jar.has('sessionid'));
    // Another user is not affected.
    assert.equal((await new Browser(t).login()).status, 302);
  });
});

describe('a logged-in browser on the API', () => {
  it('should read with the session alone and write only with the CSRF header', async () => {
    const b = new Browser(t);
    await b.login();
    assert.equal((await b.api('GET', '/api/dcim/location-types/')).status, 200);
    const missing = await b.api('POST', '/api/dcim/location-types/', { name: 'Session Type' }, { csrf: null });
    assert.deepEqual([missing.status, missing.body], [403, { detail: 'CSRF Failed: CSRF token missing.' }]);
    const created = await b.api('POST', '/api/dcim/location-types/', { name: 'Session Type' });
    assert.equal(created.status, 201, created.raw);
    const change = await t.call('GET', `/api/extras/object-changes/?changed_object_id=${created.body.id}`);
    assert.equal(change.body.results[0].user_name, 'admin');
  });

  it('should serve /api/docs/, the browsable API and GraphiQL to the session', async () => {
    const b = new Browser(t);
    await b.login();
    const docs = await b.get('/api/docs/');
    assert.equal(docs.status, 200);
    assert.match(docs.raw, /X-CSRFToken/);
    assert.equal((await b.get('/api/swagger.json')).status, 200);
    const browsable = await b.get('/api/dcim/');
    assert.equal(browsable.status, 200);
    assert.match(String(browsable.headers['content-type']), /^text\/html/);
    assert.notEqual((await b.get('/graphql/')).status, 302);
  });

  it('should forget the session at logout', async () => {
    const b = new Browser(t);
    await b.login();
    const key = b.jar.get('sessionid')!;
    const res = await b.form('/logout/', {});
    assert.deepEqual([res.status, res.headers.location], [302, '/login/']);
    assert.ok(!b.jar.has('sessionid'));
    const replay = await t.call('GET', '/api/dcim/location-types/', undefined, { token: null, headers: { cookie: `sessionid=${key}` } });
    assert.equal(replay.status, 403, 'the old cookie is dead on the server too');
  });

  it('should refuse the session of a user made inactive', async () => {
    const user = await makeUser(t, 'leaver');
    const b = new Browser(t);
    assert.equal((await b.login('leaver', user.password)).status, 302);
    assert.equal((await b.get('/')).status, 200);
    await t.call('PATCH', `/api/users/users/${user.id}/`, { is_active: false });
    assert.equal((await b.get('/')).status, 302);
  });
});

describe('sessions across processes', { skip: DB_URL.startsWith('postgres') ? 'the SQLite file case: PostgreSQL shares the same table by construction' : false }, () => {
  it('should accept a session made by one server at another over the same database file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ui-session-'));
    const url = `sqlite:${join(dir, 'db.sqlite3')}`;
    const config = loadConfig({ DATABASE_URL: url, SUPERUSER_NAME: 'admin', SUPERUSER_PASSWORD: 'admin-pass' });
    const one = await buildApp({ config });
    const two = await buildApp({ config, migrate: false });
    try {
      const wrap = (app: typeof one): TestApp => ({ app, close: async () => {}, call: async (method, u, body, opts = {}) => {
        const res = await app.inject({ method, url: u, headers: opts.headers, payload: body as string | undefined });
        return { status: res.statusCode, headers: res.headers, body: undefined, raw: res.body };
      } });
      const b = new Browser(wrap(one));
      assert.equal((await b.login()).status, 302);
      const other = await two.inject({ method: 'GET', url: '/', headers: { cookie: b.cookieHeader() } });
      assert.equal(other.statusCode, 200);
      await b.form('/logout/', {});
      const after = await two.inject({ method: 'GET', url: '/', headers: { cookie: `sessionid=${b.jar.get('sessionid') ?? 'gone'}` } });
      assert.equal(after.statusCode, 302);
    } finally {
      await one.close();
      await two.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
