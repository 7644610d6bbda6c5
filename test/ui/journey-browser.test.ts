import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { DB_URL, create, makeApp } from '../helpers/app.js';
import { CHROMIUM_PATH, needChromium } from '../helpers/prerequisite.js';
import type { Browser, Page } from 'playwright-core';
import type { TestApp } from '../helpers/app.js';

/**
 * The "Done when" journey in headless Chromium, as a new user would do it: log in,
 * create a location, a rack and a device in it, see the device in the rack's elevation,
 * allocate the next free IP of a prefix to its interface, find everything through the global
 * search; then edit with a validation error, and delete. Screenshots of the main pages go to
 * test-screenshots/ (ignored by git; SCREENSHOTS_DIR overrides the folder).
 */
const MISSING = needChromium();
const TIMEOUT = 300_000;
const SHOTS = process.env.SCREENSHOTS_DIR ?? join(fileURLToPath(new URL('../../test-screenshots', import.meta.url)), DB_URL.startsWith('postgres') ? 'postgresql' : 'sqlite');

let served: TestApp | undefined;
let browser: Browser | undefined;
let base = '';
const given: Record<string, any> = {};

/** What an inventory already holds before the journey: a location type, a device type with an interface, a role, a prefix. */
before(async () => {
  if (MISSING) return;
  served = await makeApp();
  const t = served;
  await create(t, '/api/dcim/location-types/', { name: 'Campus', content_types: ['dcim.rack', 'dcim.device', 'ipam.prefix'] });
  const maker = await create(t, '/api/dcim/manufacturers/', { name: 'Acme' });
  given.deviceType = await create(t, '/api/dcim/device-types/', { manufacturer: maker.id, model: 'Switch-1U', u_height: 1 });
  await create(t, '/api/dcim/interface-templates/', { device_type: given.deviceType.id, name: 'eth0', type: '1000base-t' });
  await create(t, '/api/extras/roles/', { name: 'Access switch', content_types: ['dcim.device'] });
  given.prefix = await create(t, '/api/ipam/prefixes/', { prefix: '10.20.30.0/24', status: 'Active', type: 'network' });
  await create(t, '/api/ipam/ip-addresses/', { address: '10.20.30.1/24', status: 'Active', namespace: 'Global' });
  mkdirSync(SHOTS, { recursive: true });
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox', '--disable-gpu'] });
});
after(async () => {
  await browser?.close();
  await served?.close();
});

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

/** A related-object picker: type in its search box, wait for the API's matches, choose one. */
async function pick(page: Page, field: string, term: string, label: string): Promise<void> {
  await page.locator(`input[data-picker-for="id_${field}"]`).fill(term);
  const option = page.locator(`#id_${field} option`, { hasText: label }).first();
  await option.waitFor({ state: 'attached' });
  await page.selectOption(`#id_${field}`, { value: (await option.getAttribute('value')) ?? '' });
  await page.waitForLoadState('networkidle');
}

/** Sends a form from its button by keyboard (a click right after a full-page screenshot may land on the form beside the button). */
async function submit(page: Page, button: string): Promise<void> {
  await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: button, exact: true }).press('Enter')]);
}

describe('the new user\'s journey in headless Chromium', { skip: MISSING }, () => {
  it('should log in, build a rack with a device, allocate an IP to its interface and find it all again', { timeout: TIMEOUT }, async () => {
    const page = await browser!.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(60_000);
    const external: string[] = [];
    page.on('request', (r) => { if (!r.url().startsWith(base) && !r.url().startsWith('data:')) external.push(r.url()); });
    try {
      // Log in (the home page sends there first).
      await page.goto(`${base}/`);
      assert.match(page.url(), /\/login\/\?next=\/$/);
      await shot(page, '01-login');
      await page.getByLabel('Username').fill('admin');
      await page.getByLabel('Password').fill('admin-pass');
      await submit(page, 'Log in');
      assert.equal(new URL(page.url()).pathname, '/');
      await shot(page, '02-home');

      // A location.
      await page.goto(`${base}/dcim/locations/add/`);
      await page.getByLabel('Name', { exact: true }).fill('Lab West');
      await pick(page, 'location_type', 'Camp', 'Campus');
      await pick(page, 'status', 'Act', 'Active');
      await shot(page, '03-location-form');
      await submit(page, 'Create');
      assert.match(page.url(), /\/dcim\/locations\/[0-9a-f-]{36}\/$/);
      assert.equal(await page.locator('h1').textContent(), 'Lab West');

      // A rack in it.
      await page.goto(`${base}/dcim/racks/add/`);
      await page.getByLabel('Name', { exact: true }).fill('Rack A1');
      await pick(page, 'location', 'Lab', 'Lab West');
      await pick(page, 'status', 'Act', 'Active');
      await submit(page, 'Create');
      assert.equal(await page.locator('h1').textContent(), 'Rack A1');
      const rackUrl = page.url();

      // A device in the rack, from the rack's page (rack and location come filled in).
      await page.getByRole('link', { name: 'Add a device to this rack' }).click();
      await page.waitForURL(/\/dcim\/devices\/add\//);
      assert.equal(await page.locator('#id_rack option:checked').textContent(), 'Rack A1');
      await page.getByLabel('Name', { exact: true }).fill('sw-west-01');
      await pick(page, 'device_type', 'Switch', 'Switch-1U');
      await pick(page, 'role', 'Access', 'Access switch');
      await pick(page, 'status', 'Act', 'Active');
      await page.getByLabel('Position (U)').fill('20');
      await page.selectOption('#id_face', 'front');
      await submit(page, 'Create');
      assert.equal(await page.locator('h1').textContent(), 'sw-west-01');
      await shot(page, '04-device');

      // The device in the rack's elevation.
      await page.goto(rackUrl);
      const front = page.locator('#elevation-front svg');
      await front.locator('text.rack-device-fullname', { hasText: 'sw-west-01' }).waitFor();
      assert.match((await page.locator('#elevation-front figcaption').textContent()) ?? '', /41 of 42 units free/);
      await shot(page, '05-rack-elevation');

      // The next free IP of the prefix, allocated to the device's interface.
      await page.goto(`${base}/ipam/prefixes/${given.prefix.id}/`);
      assert.match((await page.locator('#utilization').textContent()) ?? '', /1 of 256 addresses/);
      await shot(page, '06-prefix');
      await pick(page, 'interface', 'eth0', 'eth0 (sw-west-01)');
      await submit(page, 'Allocate next free IP');
      assert.match(page.url(), /\/ipam\/ip-addresses\/[0-9a-f-]{36}\/$/);
      assert.equal(await page.locator('h1').textContent(), '10.20.30.2/24');
      const device = (await served!.call('GET', '/api/dcim/devices/?name=sw-west-01')).body.results[0];
      await page.goto(`${base}/dcim/devices/${device.id}/`);
      await page.locator('#interfaces a', { hasText: '10.20.30.2/24' }).waitFor();

      // Everything found again through the global search.
      for (const [term, expected] of [['sw-west', 'sw-west-01'], ['Lab West', 'Lab West'], ['Rack A1', 'Rack A1'], ['10.20.30.2', '10.20.30.2/24']]) {
        await page.getByLabel('Search everything').fill(term);
        await Promise.all([page.waitForURL(/\/search\/\?q=/), page.getByLabel('Search everything').press('Enter')]);
        await page.locator('main a', { hasText: expected }).first().waitFor();
      }
      await shot(page, '07-search');
      assert.deepEqual(external, [], 'no request leaves the service');
    } finally {
      await page.close();
    }
  });

  it('should show an edit\'s validation error at its field, then save, then delete', { timeout: TIMEOUT }, async () => {
    const context = await browser!.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    try {
      await page.goto(`${base}/login/`);
      await page.getByLabel('Username').fill('admin');
      await page.getByLabel('Password').fill('admin-pass');
      await submit(page, 'Log in');
      const device = (await served!.call('GET', '/api/dcim/devices/?name=sw-west-01')).body.results[0];
      await page.goto(`${base}/dcim/devices/${device.id}/edit/`);
      await page.getByLabel('Position (U)').fill('99');
      await submit(page, 'Save');
      const error = page.locator('#err_position');
      assert.match((await error.textContent()) ?? '', /U99|99/);
      assert.equal(await page.getByLabel('Position (U)').getAttribute('aria-describedby'), 'err_position');
      await shot(page, '08-edit-error');
      await page.getByLabel('Position (U)').fill('21');
      await submit(page, 'Save');
      assert.equal(new URL(page.url()).pathname, `/dcim/devices/${device.id}/`);
      assert.equal((await served!.call('GET', `/api/dcim/devices/${device.id}/`)).body.position, 21);

      // Delete the address allocated above, from its page.
      const ip = (await served!.call('GET', '/api/ipam/ip-addresses/?address=10.20.30.2')).body.results[0];
      await page.goto(`${base}/ipam/ip-addresses/${ip.id}/`);
      await page.getByRole('link', { name: 'Delete' }).click();
      await page.waitForURL(/\/delete\/$/);
      await submit(page, 'Delete');
      assert.equal(new URL(page.url()).pathname, '/ipam/ip-addresses/');
      assert.equal((await served!.call('GET', `/api/ipam/ip-addresses/${ip.id}/`)).status, 404);
      await shot(page, '09-ip-list-after-delete');
    } finally {
      await context.close();
    }
  });
});
