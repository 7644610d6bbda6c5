import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../helpers/app.js';
import { Browser } from '../helpers/session.js';
import type { TestApp } from '../helpers/app.js';

let t: TestApp;
let b: Browser;

before(async () => {
  t = await makeApp();
  const type = await create(t, '/api/dcim/location-types/', { name: 'Site', content_types: ['dcim.device'] });
  const tier = await create(t, '/api/extras/custom-fields/', { label: 'Tier', key: 'tier', type: 'select', content_types: ['dcim.location'] });
  await create(t, '/api/extras/custom-field-choices/', [{ custom_field: tier.id, value: 'gold' }, { custom_field: tier.id, value: 'silver' }]);
  await create(t, '/api/extras/custom-fields/', { label: 'Floors', key: 'floors', type: 'integer', content_types: ['dcim.location'] });
  await create(t, '/api/dcim/locations/', [
    { name: 'Alpha Lab', location_type: type.id, status: 'Active', custom_fields: { tier: 'gold', floors: 3 } },
    { name: 'Beta Lab', location_type: type.id, status: 'Active', custom_fields: { tier: 'silver', floors: 1 } },
    { name: 'Gamma Depot', location_type: type.id, status: 'Active', description: 'spare parts' },
  ]);
  b = new Browser(t);
  await b.login();
});
after(async () => t.close());

const rows = (raw: string) => [...raw.matchAll(/<th scope="row"><a href="[^"]+">([^<]+)<\/a><\/th>/g)].map((m) => m[1]).sort();

describe('the list filter form built from the whole filter set', () => {
  it('should offer every kind of filter of the model: related, choice, yes/no, text, number, app and tags', async () => {
    const form = (await b.get('/dcim/interfaces/')).raw;
    assert.match(form, /<select id="filter_device" name="device" data-api="\/api\/dcim\/devices\/"/, 'related: a picker that searches as you type');
    assert.match(form, /<select id="filter_tags" name="tags" multiple data-api="\/api\/extras\/tags\/"/);
    assert.match(form, /<select id="filter_type" name="type"><option value="">Any<\/option>/);
    assert.match(form, /<select id="filter_enabled" name="enabled"><option value="">Any<\/option><option value="true">Yes<\/option><option value="false">No<\/option><\/select>/);
    assert.match(form, /<details class="more-filters"><summary>More filters \(\d+\)<\/summary>/);
    assert.match(form, /<input id="filter_name__ic" name="name__ic" type="search" value="">/);
    assert.match(form, /<input id="filter_mtu" name="mtu" type="number" value="">/);
    assert.match(form, /<select id="filter_has_cable" name="has_cable">/, 'an app filter');
    assert.doesNotMatch(form, /name="device_id"/, 'id duplicates left out');
  });

  it('should offer the custom fields by type and filter by them, the section open when in use', async () => {
    const form = (await b.get('/dcim/locations/')).raw;
    assert.match(form, /<select id="filter_cf_tier" name="cf_tier"><option value="">Any<\/option><option value="gold">gold<\/option><option value="silver">silver<\/option><\/select>/);
    assert.match(form, /<input id="filter_cf_floors" name="cf_floors" type="number" value="">/);
    const gold = await b.get('/dcim/locations/?cf_tier=gold');
    assert.deepEqual(rows(gold.raw), ['Alpha Lab']);
    assert.match(gold.raw, /<details class="more-filters" open>/);
    assert.match(gold.raw, /<option value="gold" selected>gold<\/option>/);
    assert.deepEqual(rows((await b.get('/dcim/locations/?cf_floors=1')).raw), ['Beta Lab']);
  });

  it('should filter by the text filters as "contains" and ignore the blank ones the form sends', async () => {
    const res = await b.get('/dcim/locations/?q=&name__ic=lab&description__ic=&cf_tier=');
    assert.equal(res.status, 200);
    assert.deepEqual(rows(res.raw), ['Alpha Lab', 'Beta Lab']);
    assert.match(res.raw, /<input id="filter_name__ic" name="name__ic" type="search" value="lab">/);
    assert.deepEqual(rows((await b.get('/dcim/locations/?description__ic=spare')).raw), ['Gamma Depot']);
  });

  it('should let the columns be chosen in the page, keeping the filters', async () => {
    const res = await b.get('/dcim/locations/?name__ic=lab');
    assert.match(res.raw, /<details class="columns"><summary class="btn">Columns<\/summary><form method="get" action="\/dcim\/locations\/">/);
    assert.match(res.raw, /<input type="checkbox" name="columns" value="description"> Description/);
    assert.match(res.raw, /<input type="hidden" name="name__ic" value="lab">/);
    const chosen = await b.get('/dcim/locations/?name__ic=lab&columns=description&columns=status');
    assert.match(chosen.raw, /<th scope="col">Location<\/th><th scope="col"[^>]*><a [^>]*>Description<\/a><\/th><th scope="col"[^>]*><a [^>]*>Status<\/a><\/th><\/tr>/);
  });
});
