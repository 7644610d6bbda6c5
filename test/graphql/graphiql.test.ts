import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { chromium } from 'playwright-core';
import { TOKEN, create, makeApp } from '../helpers/app.js';
import type { Browser } from 'playwright-core';
import type { TestApp } from '../helpers/app.js';

/** Debian's Chromium (`.ci/run` installs it); CHROMIUM overrides the path. */
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const NO_BROWSER = existsSync(CHROMIUM) ? undefined : `${CHROMIUM} not found (apt-get install -y chromium)`;
const NO_ASSETS = existsSync(new URL('../../dist/graphiql/graphiql.js', import.meta.url)) ? undefined : 'GraphiQL assets not built (npm run build:graphiql)';
/** A CSRF secret as Django makes one (32 letters and digits), sent back in X-CSRFToken. */
const CSRF = 'abcdefghijklmnopqrstuvwxyz012345';
/** Stands for a logged-in browser: the web interface's session login is another helper's; this file fakes its outcome. */
const FAKE_SESSION = 'graphiql-test-session';

let t: TestApp;
let browser: Browser | undefined;
let base = '';

before(async () => {
  t = await makeApp();
  // The fake session: its cookie authenticates API calls as the superuser, and marks page requests as logged in.
  t.app.addHook('onRequest', async (req) => {
    if (String(req.headers.cookie ?? '').includes(`sessionid=${FAKE_SESSION}`) && req.url.startsWith('/api/')) req.headers.authorization = `Token ${TOKEN}`;
  });
  t.app.addHook('preHandler', async (req) => {
    if (String(req.headers.cookie ?? '').includes(`sessionid=${FAKE_SESSION}`) && !req.actor) req.actor = { id: 'fake', username: 'admin', is_superuser: true, is_active: true, permissions: [] };
  });
  const type = await create(t, '/api/dcim/location-types/', { name: 'Site' });
  await create(t, '/api/dcim/locations/', { name: 'ams', location_type: type.id, status: 'Active' });
  if (NO_BROWSER || NO_ASSETS) return;
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
});
after(async () => {
  await browser?.close();
  await t.close();
});

const session = { cookie: `sessionid=${FAKE_SESSION}; csrftoken=${CSRF}`, 'x-csrftoken': CSRF };

describe('GET /graphql/', () => {
  it('should send a visitor who is not logged in to the login page', async () => {
    const res = await t.call('GET', '/graphql/', undefined, { token: null });
    assert.deepEqual([res.status, res.headers.location], [302, '/login/?next=/graphql/']);
    const withToken = await t.call('GET', '/graphql/');
    assert.equal(withToken.status, 302, 'a token is no web session');
  });

  it('should serve the page and its assets from this service to a logged-in user', { skip: NO_ASSETS }, async () => {
    const page = await t.call('GET', '/graphql/', undefined, { token: null, headers: session });
    assert.equal(page.status, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    const sources = [...page.raw.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    assert.deepEqual(sources, ['/graphql/assets/graphiql.css', '/graphql/assets/graphiql.js']);
    for (const source of sources) {
      const asset = await t.call('GET', source, undefined, { token: null });
      assert.equal(asset.status, 200, source);
      assert.ok(asset.raw.length > 10_000, source);
    }
    assert.equal((await t.call('GET', '/graphql/assets/other.js', undefined, { token: null })).status, 404);
  });

  it('should run the page\'s own POSTs for the logged-in user', async () => {
    const res = await t.call('POST', '/graphql/', { query: '{ locations { name } }' }, { token: null, headers: session });
    assert.deepEqual([res.status, res.body], [200, { data: { locations: [{ name: 'ams' }] } }]);
  });
});

describe('GraphiQL in headless Chromium', { skip: NO_BROWSER ?? NO_ASSETS }, () => {
  it('should run a query through the API with the session cookie and the CSRF header', { timeout: 120_000 }, async () => {
    const context = await browser!.newContext();
    await context.addCookies([{ name: 'sessionid', value: FAKE_SESSION, url: base }, { name: 'csrftoken', value: CSRF, url: base }]);
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    const external: string[] = [];
    page.on('request', (r) => { if (!r.url().startsWith(base)) external.push(r.url()); });
    try {
      await page.goto(`${base}/graphql/?query=${encodeURIComponent('{ locations { name } }')}`);
      await page.locator('.graphiql-container').waitFor();
      const sent = page.waitForRequest((r) => r.url() === `${base}/api/graphql/` && (r.postData() ?? '').includes('locations'));
      await page.locator('.graphiql-execute-button').click();
      const request = await sent;
      assert.equal(request.headers()['x-csrftoken'], CSRF);
      await page.locator('.result-window').getByText('"ams"').waitFor();
      assert.deepEqual(external.filter((u) => !u.startsWith('data:')), [], 'no call leaves this service');
    } finally {
      await context.close();
    }
  });
});
