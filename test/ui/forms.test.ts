import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../helpers/app.js';
import { Browser } from '../helpers/session.js';
import type { TestApp } from '../helpers/app.js';

let t: TestApp;
let b: Browser;
let siteType: any;

before(async () => {
  t = await makeApp();
  siteType = await create(t, '/api/dcim/location-types/', { name: 'Site', content_types: ['dcim.device', 'dcim.rack'] });
  b = new Browser(t);
  await b.login();
});
after(async () => t.close());

describe('create, edit and delete forms', () => {
  it('should create from the add form and go to the new object', async () => {
    const form = await b.get('/dcim/locations/add/');
    assert.match(form.raw, /<label for="id_name">Name<\/label>/);
    assert.match(form.raw, /<select id="id_location_type" name="location_type" required data-api="\/api\/dcim\/location-types\/"/);
    assert.match(form.raw, /data-api="\/api\/extras\/statuses\/" data-term="q" data-query="content_types=dcim.location"/);
    const res = await b.form('/dcim/locations/add/', { name: 'Form Site', location_type: siteType.id, status: 'Active', description: '' });
    assert.equal(res.status, 303, res.raw.slice(0, 3000));
    const made = await t.call('GET', '/api/dcim/locations/?name=Form%20Site');
    assert.equal(res.headers.location, `/dcim/locations/${made.body.results[0].id}/`);
    assert.equal(made.body.results[0].description, '');
  });

  it('should show a refused write at its field, keep what was typed, and write nothing', async () => {
    const res = await b.form('/dcim/locations/add/', { name: 'Form Site', location_type: siteType.id, status: 'Active', latitude: 'north' });
    assert.equal(res.status, 400);
    assert.match(res.raw, /<div class="field invalid"><label for="id_latitude">Latitude<\/label>/);
    assert.match(res.raw, new RegExp(`<option value="${siteType.id}" selected>Site</option>`), 'the chosen related object keeps its name');
    assert.match(res.raw, /id="err_latitude" role="alert">/);
    assert.match(res.raw, /aria-describedby="err_latitude" aria-invalid="true"/);
    assert.match(res.raw, /value="north"/);
    assert.equal((await t.call('GET', '/api/dcim/locations/?name=Form%20Site')).body.count, 1);
  });

  it('should edit with the errors at the field, then save', async () => {
    const site = (await t.call('GET', '/api/dcim/locations/?name=Form%20Site')).body.results[0];
    const page = await b.get(`/dcim/locations/${site.id}/edit/`);
    assert.match(page.raw, /<input id="id_name" name="name" type="text" value="Form Site"/);
    assert.match(page.raw, new RegExp(`<option value="${siteType.id}" selected>Site</option>`));
    const bad = await b.form(`/dcim/locations/${site.id}/edit/`, { name: '', location_type: siteType.id, status: 'Active' });
    assert.equal(bad.status, 400);
    assert.match(bad.raw, /id="err_name" role="alert">This field may not be blank.<\/div>/);
    const ok = await b.form(`/dcim/locations/${site.id}/edit/`, { name: 'Form Site 2', location_type: siteType.id, status: 'Active', description: 'edited' });
    assert.deepEqual([ok.status, ok.headers.location], [303, `/dcim/locations/${site.id}/`]);
    const after = (await t.call('GET', `/api/dcim/locations/${site.id}/`)).body;
    assert.deepEqual([after.name, after.description], ['Form Site 2', 'edited']);
    const changes = await b.get(`/dcim/locations/${site.id}/changelog/`);
    assert.match(changes.raw, /Updated/);
  });

  it('should refuse a form without its CSRF token', async () => {
    const res = await b.form('/dcim/locations/add/', { name: 'No CSRF', location_type: siteType.id, status: 'Active' }, { csrf: null });
    assert.equal(res.status, 403);
    assert.equal((await t.call('GET', '/api/dcim/locations/?name=No%20CSRF')).body.count, 0);
  });

  it('should delete after confirmation', async () => {
    const doomed = await create(t, '/api/dcim/locations/', { name: 'Doomed', location_type: siteType.id, status: 'Active' });
    const confirm = await b.get(`/dcim/locations/${doomed.id}/delete/`);
    assert.match(confirm.raw, /Delete Doomed\?/);
    const res = await b.form(`/dcim/locations/${doomed.id}/delete/`, {});
    assert.deepEqual([res.status, res.headers.location], [303, '/dcim/locations/']);
    assert.equal((await t.call('GET', `/api/dcim/locations/${doomed.id}/`)).status, 404);
  });

  it('should add a note from the notes tab', async () => {
    const site = (await t.call('GET', '/api/dcim/locations/?name=Form%20Site%202')).body.results[0];
    const res = await b.form(`/dcim/locations/${site.id}/notes/`, { note: 'Door code changed' });
    assert.equal(res.status, 303);
    assert.match((await b.get(`/dcim/locations/${site.id}/notes/`)).raw, /Door code changed/);
  });
});

describe('bulk edit, bulk delete and import', () => {
  it('should import rows from CSV, all or none, naming the row of an error', async () => {
    const bad = await b.form('/tenancy/tenants/import/', { csv: 'name,description\nT-one,first\n,second' });
    assert.equal(bad.status, 400);
    assert.match(bad.raw, /Row 2: /);
    assert.equal((await t.call('GET', '/api/tenancy/tenants/')).body.count, 0);
    const res = await b.form('/tenancy/tenants/import/', { csv: 'name,description\nT-one,first\nT-two,second\nT-three,third' });
    assert.equal(res.status, 303);
    assert.equal((await t.call('GET', '/api/tenancy/tenants/')).body.count, 3);
  });

  it('should edit the selected objects together', async () => {
    const tenants = (await t.call('GET', '/api/tenancy/tenants/?name=T-one&name=T-two')).body.results;
    const pk = tenants.map((x: any) => x.id);
    const form = await b.form('/tenancy/tenants/edit/', { pk, return_url: '/tenancy/tenants/' });
    assert.equal(form.status, 200);
    assert.match(form.raw, /Edit 2 tenants/);
    const res = await b.form('/tenancy/tenants/edit/', { pk, _apply: '1', description: 'bulk', return_url: '/tenancy/tenants/?q=T' });
    assert.deepEqual([res.status, res.headers.location], [303, '/tenancy/tenants/?q=T']);
    const after = (await t.call('GET', '/api/tenancy/tenants/?description=bulk')).body;
    assert.equal(after.count, 2);
  });

  it('should delete the selected objects after confirmation', async () => {
    const pk = (await t.call('GET', '/api/tenancy/tenants/?description=bulk')).body.results.map((x: any) => x.id);
    const confirm = await b.form('/tenancy/tenants/delete/', { pk });
    assert.match(confirm.raw, /Delete 2 tenants\?/);
    const res = await b.form('/tenancy/tenants/delete/', { pk, _confirm: '1' });
    assert.equal(res.status, 303);
    assert.deepEqual((await t.call('GET', '/api/tenancy/tenants/')).body.results.map((x: any) => x.name), ['T-three']);
  });
});
