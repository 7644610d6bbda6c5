import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromium } from 'playwright-core';
import { TOKEN, create, makeApp } from '../helpers/app.js';
import { CHROMIUM_PATH, needChromium } from '../helpers/prerequisite.js';
import type { Browser, Page, Request } from 'playwright-core';
import type { TestApp } from '../helpers/app.js';

/** Chromium (a failure under CI when missing, a counted skip elsewhere). */
const MISSING = needChromium();
const TIMEOUT = 120_000;
const LIST_TENANTS = '#/tenancy/tenancy_tenants_list';

let served: TestApp | undefined;
let browser: Browser | undefined;
let base = '';

before(async () => {
  if (MISSING) return;
  // The browser has no session login here: anonymous reads load the page and the schema;
  // the operation itself is sent with the token entered in the Authorize dialog.
  served = await makeApp({ exemptViewPermissions: ['*'] });
  await create(served, '/api/tenancy/tenants/', [{ name: 'Browser Tenant' }]);
  base = await served.app.listen({ host: '127.0.0.1', port: 0 });
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox', '--disable-gpu'] });
});
after(async () => {
  await browser?.close();
  await served?.close();
});

/**
 * Opens /api/docs/ (deep-linked to `#/<tag>/<operationId>` when given, which expands that
 * operation) and waits until Swagger UI has rendered operations from the schema.
 */
async function openDocs(hash = ''): Promise<Page> {
  const page = await browser!.newPage();
  page.setDefaultTimeout(60_000);
  await page.goto(`${base}/api/docs/${hash}`);
  await page.locator('.opblock').first().waitFor();
  return page;
}

/**
 * Authorize dialog: the value goes into the tokenAuth field. The page persists it
 * (`persistAuthorization`), so it survives the reload that brings the deep-linked
 * operation back into view (Swagger UI re-renders the long list from the top).
 */
async function authorize(page: Page, value: string): Promise<void> {
  await page.locator('.auth-wrapper button.authorize').click();
  const dialog = page.locator('.modal-ux');
  await dialog.locator('input').first().fill(value);
  await dialog.locator('button.authorize').first().click();
  await dialog.locator('button.btn-done').click();
  await page.reload();
  await page.locator('.auth-wrapper button.authorize.locked').waitFor();
}

/** Expands an operation (unless open), clicks Try it out then Execute; returns the request it sent and the rendered code. */
async function tryItOut(page: Page, tag: string, operationId: string): Promise<{ sent: Request; code: string }> {
  const op = page.locator(`#operations-${tag}-${operationId}`);
  if (!(await op.evaluate((e) => e.classList.contains('is-open')))) await op.locator('button.opblock-summary-control').click();
  await op.locator('button.try-out__btn').click();
  const sent = page.waitForRequest((r) => r.url().startsWith(`${base}/api/`) && !r.url().includes('/swagger.json'));
  await op.locator('button.execute').click();
  const code = (await op.locator('.live-responses-table tr.response .response-col_status').first().textContent())?.trim() ?? '';
  return { sent: await sent, code };
}

describe('/api/docs/ in headless Chromium', { skip: MISSING }, () => {
  it('should render the endpoint list from the schema', { timeout: TIMEOUT }, async () => {
    const page = await openDocs();
    try {
      assert.match((await page.locator('h1.title').textContent()) ?? '', /^API Documentation/);
      // Swagger UI renders the list progressively: the first rows are the API root and the first app's.
      const paths = await page.locator('.opblock-summary-path').evaluateAll((els) => els.map((e) => e.getAttribute('data-path')));
      const doc = (await served!.call('GET', '/api/swagger.json')).body;
      assert.deepEqual(paths.slice(0, 2), ['/', `/${served!.app.services.registry.apps[0]}/`]);
      assert.ok(paths.length > 2 && paths.every((p) => p && p in doc.paths), paths.join(' '));
    } finally {
      await page.close();
    }
  });

  it('should send a GET list with the authorized token to /api/... and render 200', { timeout: TIMEOUT }, async () => {
    const page = await openDocs(LIST_TENANTS);
    try {
      await authorize(page, `Token ${TOKEN}`);
      const { sent, code } = await tryItOut(page, 'tenancy', 'tenancy_tenants_list');
      assert.equal(new URL(sent.url()).pathname, '/api/tenancy/tenants/');
      assert.equal(sent.headers().authorization, `Token ${TOKEN}`);
      assert.equal(code, '200');
      const body = await page.locator('#operations-tenancy-tenancy_tenants_list .live-responses-table tr.response .response-col_description pre').first().textContent();
      assert.match(body ?? '', /Browser Tenant/);
    } finally {
      await page.close();
    }
  });

  it('should send a bare key from the Authorize dialog as "Token <key>"', { timeout: TIMEOUT }, async () => {
    const page = await openDocs(LIST_TENANTS);
    try {
      await authorize(page, TOKEN);
      const { sent, code } = await tryItOut(page, 'tenancy', 'tenancy_tenants_list');
      assert.equal(sent.headers().authorization, `Token ${TOKEN}`);
      assert.equal(code, '200');
    } finally {
      await page.close();
    }
  });

  it('should render the 403 when the token is wrong (the header reaches the server)', { timeout: TIMEOUT }, async () => {
    const page = await openDocs(LIST_TENANTS);
    try {
      await authorize(page, 'Token 0000000000000000000000000000000000000000');
      const { code } = await tryItOut(page, 'tenancy', 'tenancy_tenants_list');
      assert.equal(code, '403');
    } finally {
      await page.close();
    }
  });
});

describe('/api/ in headless Chromium', { skip: MISSING }, () => {
  it('should render the browsable root with links to every app', { timeout: TIMEOUT }, async () => {
    const page = await browser!.newPage();
    try {
      await page.goto(`${base}/api/`);
      const links = await page.locator('pre.response a').evaluateAll((els) => els.map((e) => e.getAttribute('href')));
      for (const app of served!.app.services.registry.apps) assert.ok(links.includes(`${base}/api/${app}/`), app);
    } finally {
      await page.close();
    }
  });
});
