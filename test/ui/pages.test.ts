import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildWorld, type World } from '../contract/search-world.js';
import { makeApp } from '../helpers/app.js';
import { Browser } from '../helpers/session.js';
import type { TestApp } from '../helpers/app.js';

let t: TestApp;
let world: World;
let b: Browser;

before(async () => {
  t = await makeApp();
  world = await buildWorld(t);
  b = new Browser(t);
  await b.login();
});
after(async () => t.close());

/** The object the world made of a model: its id. */
function idOf(modelId: string): string | undefined {
  const made = world[modelId];
  const one = Array.isArray(made) ? made[0] : made;
  return one && typeof one === 'object' ? String(one.id) : typeof one === 'string' ? one : undefined;
}

describe('the generic pages of every model', () => {
  it('should render the list, add, detail and its tabs with 200 for every served model', async () => {
    const failures: string[] = [];
    let details = 0;
    for (const model of t.app.services.registry.models) {
      if (model.internal) continue;
      const base = `/${model.app}/${model.path}/`;
      const urls = [base];
      if (!model.read_only) urls.push(`${base}add/`, `${base}import/`);
      const id = idOf(model.id);
      if (id) {
        details += 1;
        urls.push(`${base}${id}/`, `${base}${id}/changelog/`, `${base}${id}/notes/`, `${base}${id}/advanced/`);
        if (!model.read_only) urls.push(`${base}${id}/edit/`, `${base}${id}/delete/`);
      }
      for (const url of urls) {
        const res = await b.get(url);
        if (res.status !== 200 || !/^text\/html/.test(String(res.headers['content-type']))) failures.push(`${url} -> ${res.status} ${res.raw.slice(0, 200)}`);
      }
    }
    assert.deepEqual(failures, []);
    assert.ok(details > 60, `details checked for ${details} models`);
  });

  it('should show the object on its detail page with links to related objects and reverse relations', async () => {
    const device = await t.call('GET', `/api/dcim/devices/${idOf('dcim.device')}/`);
    const res = await b.get(`/dcim/devices/${device.body.id}/`);
    assert.match(res.raw, new RegExp(`<h1>${device.body.display}</h1>`));
    assert.match(res.raw, new RegExp(`href="/dcim/locations/${device.body.location.id}/"`));
    assert.match(res.raw, /<h2>Interfaces <span class="badge">\d+<\/span><\/h2>/);
    assert.equal(res.headers['content-security-policy']?.toString().includes("script-src 'self'"), true);
  });
});

describe('list pages', () => {
  it('should filter, search, sort and page as the API does, and export the same rows as CSV', async () => {
    const all = await t.call('GET', '/api/dcim/locations/?limit=1000');
    const names = all.body.results.map((r: any) => r.display);
    const page = await b.get('/dcim/locations/?sort=-name&per_page=1');
    assert.equal(page.status, 200);
    assert.match(page.raw, new RegExp(`of ${all.body.count} \\(page 1 of ${all.body.count}\\)`));
    const sorted = (await t.call('GET', '/api/dcim/locations/?sort=-name&limit=1')).body.results[0];
    assert.match(page.raw, new RegExp(`href="/dcim/locations/${sorted.id}/">`));
    const q = await b.get(`/dcim/locations/?q=${encodeURIComponent(names[0])}`);
    assert.match(q.raw, new RegExp(`>${names[0]}</a>`));
    const bad = await b.get('/dcim/locations/?status=NoSuchStatus');
    assert.equal(bad.status, 200);
    assert.match(bad.raw, /Filter refused/);
    assert.match(page.raw, /href="\/api\/dcim\/locations\/\?sort=-name&amp;format=csv"/);
    const csv = await b.get('/api/dcim/locations/?sort=-name&format=csv');
    assert.equal(csv.status, 200);
    assert.match(csv.raw.split('\r\n')[0], /(^|,)name,/);
    assert.equal(csv.raw.trim().split('\r\n').length, all.body.count + 1);
  });

  it('should show only the chosen columns', async () => {
    const res = await b.get('/dcim/locations/?columns=description&columns=facility');
    assert.match(res.raw, /<th scope="col"><a href="[^"]*sort=description[^"]*">Description<\/a><\/th>/);
    const head = res.raw.match(/<thead>.*?<\/thead>/s)?.[0] ?? '';
    assert.doesNotMatch(head, /Status/);
    assert.match(head, />Facility</);
  });
});
