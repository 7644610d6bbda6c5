import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../helpers/app.js';
import { Browser } from '../helpers/session.js';
import type { TestApp } from '../helpers/app.js';

let t: TestApp;
let b: Browser;
let siteType: any;

/** One custom field of each type on locations; `rack_count` is required and at least 1. */
before(async () => {
  t = await makeApp();
  siteType = await create(t, '/api/dcim/location-types/', { name: 'Site', content_types: ['dcim.device'] });
  const on = { content_types: ['dcim.location'] };
  await create(t, '/api/extras/custom-fields/', [
    { ...on, label: 'Owner', key: 'owner', type: 'text', weight: 10 },
    { ...on, label: 'Rack count', key: 'rack_count', type: 'integer', required: true, default: 1, validation_minimum: 1, weight: 20 },
    { ...on, label: 'Staffed', key: 'staffed', type: 'boolean', weight: 30 },
    { ...on, label: 'Opened', key: 'opened', type: 'date', weight: 40 },
    { ...on, label: 'Tier', key: 'tier', type: 'select', weight: 50 },
    { ...on, label: 'Power', key: 'power', type: 'multi-select', weight: 60 },
    { ...on, label: 'Portal', key: 'portal', type: 'url', weight: 70 },
    { ...on, label: 'Extra', key: 'extra', type: 'json', weight: 80 },
    { ...on, label: 'Notes md', key: 'notes_md', type: 'markdown', weight: 90 },
  ]);
  const fields = (await t.call('GET', '/api/extras/custom-fields/?limit=100')).body.results;
  const id = (key: string) => fields.find((f: any) => f.key === key).id;
  await create(t, '/api/extras/custom-field-choices/', [
    { custom_field: id('tier'), value: 'gold', weight: 1 }, { custom_field: id('tier'), value: 'silver', weight: 2 },
    { custom_field: id('power'), value: 'A', weight: 1 }, { custom_field: id('power'), value: 'B', weight: 2 },
  ]);
  b = new Browser(t);
  await b.login();
});
after(async () => t.close());

const base = () => ({ name: 'CF Site', location_type: siteType.id, status: 'Active' });

describe('custom fields in create and edit forms', () => {
  it('should show one input per custom field by its type instead of a JSON box', async () => {
    const form = (await b.get('/dcim/locations/add/')).raw;
    assert.doesNotMatch(form, /<textarea id="id_custom_fields"/);
    assert.match(form, /<fieldset class="custom-fields"><legend>Custom fields<\/legend>/);
    assert.match(form, /<input id="id_cf_owner" name="cf_owner" type="text" value="">/);
    assert.match(form, /<input id="id_cf_rack_count" name="cf_rack_count" type="number" value="1" required>/, 'the default filled in');
    assert.match(form, /<select id="id_cf_staffed" name="cf_staffed"><option value="">---------<\/option><option value="true">Yes<\/option><option value="false">No<\/option><\/select>/);
    assert.match(form, /<input id="id_cf_opened" name="cf_opened" type="date" value="">/);
    assert.match(form, /<select id="id_cf_tier" name="cf_tier"><option value="">---------<\/option><option value="gold">gold<\/option><option value="silver">silver<\/option><\/select>/);
    assert.match(form, /<input type="hidden" name="cf_power" value=""><select id="id_cf_power" name="cf_power" multiple><option value="A">A<\/option><option value="B">B<\/option><\/select>/);
    assert.match(form, /<input id="id_cf_portal" name="cf_portal" type="url" value="">/);
    assert.match(form, /<textarea id="id_cf_extra" name="cf_extra"><\/textarea>/);
    assert.match(form, /<textarea id="id_cf_notes_md" name="cf_notes_md"><\/textarea>/);
    assert.ok(form.indexOf('id_cf_owner') < form.indexOf('id_cf_rack_count') && form.indexOf('id_cf_rack_count') < form.indexOf('id_cf_notes_md'), 'in weight order');
  });

  it('should write every type as the API stores it', async () => {
    const res = await b.form('/dcim/locations/add/', { ...base(), cf_owner: 'ops', cf_rack_count: '4', cf_staffed: 'true', cf_opened: '2024-05-01', cf_tier: 'gold', cf_power: ['A', 'B'], cf_portal: 'https://portal.example.com/', cf_extra: '{"floor": 2}', cf_notes_md: '# Lab' });
    assert.equal(res.status, 303, res.raw.slice(0, 2000));
    const made = (await t.call('GET', '/api/dcim/locations/?name=CF%20Site')).body.results[0];
    assert.deepEqual(made.custom_fields, { owner: 'ops', rack_count: 4, staffed: true, opened: '2024-05-01', tier: 'gold', power: ['A', 'B'], portal: 'https://portal.example.com/', extra: { floor: 2 }, notes_md: '# Lab' });
    const edit = (await b.get(`/dcim/locations/${made.id}/edit/`)).raw;
    assert.match(edit, /<option value="true" selected>Yes<\/option>/);
    assert.match(edit, /<option value="A" selected>A<\/option><option value="B" selected>B<\/option>/);
    assert.match(edit, /<textarea id="id_cf_extra" name="cf_extra">\{\n  &quot;floor&quot;: 2\n\}<\/textarea>/);
  });

  it('should clear values on edit and keep the others', async () => {
    const made = (await t.call('GET', '/api/dcim/locations/?name=CF%20Site')).body.results[0];
    const res = await b.form(`/dcim/locations/${made.id}/edit/`, { ...base(), cf_owner: '', cf_rack_count: '6', cf_staffed: '', cf_opened: '', cf_tier: '', cf_power: '', cf_portal: '', cf_extra: '', cf_notes_md: '' });
    assert.equal(res.status, 303, res.raw.slice(0, 2000));
    const after = (await t.call('GET', `/api/dcim/locations/${made.id}/`)).body.custom_fields;
    assert.deepEqual(after, { owner: null, rack_count: 6, staffed: null, opened: null, tier: null, power: [], portal: null, extra: null, notes_md: null });
  });

  it('should show each refused value at its own field, keep what was typed and write nothing', async () => {
    const res = await b.form('/dcim/locations/add/', { ...base(), name: 'CF Bad', cf_rack_count: '0', cf_opened: '2024-13-45', cf_extra: '{nope', cf_owner: 'kept' });
    assert.equal(res.status, 400);
    assert.match(res.raw, /<div class="field required invalid"><label for="id_cf_rack_count">Rack count<\/label>/);
    assert.match(res.raw, /id="err_cf_rack_count" role="alert">Value must be at least 1<\/div>/);
    assert.match(res.raw, /id="err_cf_opened" role="alert">Date values must be in the format YYYY-MM-DD.<\/div>/);
    assert.match(res.raw, /id="err_cf_extra" role="alert">Enter a valid JSON.<\/div>/);
    assert.match(res.raw, /aria-describedby="err_cf_extra" aria-invalid="true"/);
    assert.match(res.raw, /<input id="id_cf_owner" name="cf_owner" type="text" value="kept">/);
    assert.match(res.raw, /<textarea id="id_cf_extra" name="cf_extra" aria-describedby="err_cf_extra" aria-invalid="true">\{nope<\/textarea>/);
    assert.equal((await t.call('GET', '/api/dcim/locations/?name=CF%20Bad')).body.count, 0);
  });

  it('should refuse an empty required custom field at its field', async () => {
    const res = await b.form('/dcim/locations/add/', { ...base(), name: 'CF Empty', cf_rack_count: '' });
    assert.equal(res.status, 400);
    assert.match(res.raw, /id="err_cf_rack_count" role="alert">This field is required.<\/div>/);
  });
});
