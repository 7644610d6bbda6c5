import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromium } from 'playwright-core';
import { makeApp } from '../helpers/app.js';
import { CHROMIUM_PATH, needChromium } from '../helpers/prerequisite.js';
import type { Browser, Page } from 'playwright-core';
import type { TestApp } from '../helpers/app.js';

const MISSING = needChromium();
const TIMEOUT = 120_000;

let served: TestApp | undefined;
let browser: Browser | undefined;
let base = '';

before(async () => {
  if (MISSING) return;
  served = await makeApp();
  base = await served.app.listen({ host: '127.0.0.1', port: 0 });
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox', '--disable-gpu'] });
});
after(async () => {
  await browser?.close();
  await served?.close();
});

/** Logs in through the form, as a person would, starting from the page they wanted. */
async function logIn(page: Page, target: string): Promise<void> {
  await page.goto(`${base}${target}`);
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill('admin-pass');
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(`${base}${target}`);
}

describe('/api/docs/ in a logged-in browser', { skip: MISSING }, () => {
  it('should come back to /api/docs/ after login and send "Try it out" writes with the session and CSRF header', { timeout: TIMEOUT }, async () => {
    const context = await browser!.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    try {
      await logIn(page, '/api/docs/');
      // The fragment does not survive the login form's POST: open the operation's deep link now.
      await page.goto(`${base}/api/docs/#/tenancy/tenancy_tenant_groups_create`);
      await page.reload();
      await page.locator('.opblock').first().waitFor();
      const op = page.locator('#operations-tenancy-tenancy_tenant_groups_create');
      await op.waitFor();
      if (!(await op.evaluate((e) => e.classList.contains('is-open')))) await op.locator('button.opblock-summary-control').click();
      await op.locator('button.try-out__btn').click();
      await op.locator('textarea.body-param__text').fill(JSON.stringify({ name: 'From the docs' }));
      const sent = page.waitForRequest((r) => r.url() === `${base}/api/tenancy/tenant-groups/` && r.method() === 'POST');
      await op.locator('button.execute').click();
      const request = await sent;
      assert.ok(request.headers()['x-csrftoken'], 'the CSRF header goes with the session');
      assert.equal(request.headers().authorization, undefined, 'no token: the session authenticates');
      const code = (await op.locator('.live-responses-table tr.response .response-col_status').first().textContent())?.trim();
      assert.equal(code, '201');
      const check = await served!.call('GET', '/api/tenancy/tenant-groups/?name=From%20the%20docs');
      assert.equal(check.body.count, 1);
    } finally {
      await context.close();
    }
  });
});
