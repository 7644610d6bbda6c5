import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import { SUBJECTS, makeEach, prepareSubjects } from './fixtures.js';
import { assertRefused } from '../../helpers/refusals.js';
import type { TestApp } from '../../helpers/app.js';

const ALL = SUBJECTS.map((s) => s.model);
let t: TestApp;

before(async () => {
  t = await makeApp();
  await prepareSubjects(t);
});
after(() => t.close());

describe('custom fields: values on objects', () => {
  it('should render every custom field key of the model, null when unset (api-behaviour 8)', async () => {
    const objs = await makeEach(t, 'before-cf');
    await create(t, '/api/extras/custom-fields/', { label: 'Asset owner', type: 'text', content_types: ALL });
    for (const s of SUBJECTS) {
      const got = await t.call('GET', `${s.path}${objs[s.model].id}/`);
      assert.deepEqual(got.body.custom_fields, { asset_owner: null }, s.model);
    }
  });

  it('should apply the default to existing objects when the field is added, and to new ones', async () => {
    const old = await makeEach(t, 'old-obj');
    const cf = await create(t, '/api/extras/custom-fields/', { label: 'Tier', key: 'tier', type: 'integer', default: 3, content_types: ALL });
    assert.equal(cf.default, 3);
    for (const s of SUBJECTS) {
      assert.equal((await t.call('GET', `${s.path}${old[s.model].id}/`)).body.custom_fields.tier, 3, s.model);
      const fresh = await create(t, s.path, s.make(`new-${s.model}`));
      assert.equal(fresh.custom_fields.tier, 3);
      assert.equal((await t.call('GET', `${s.path}?cf_tier=3&name=old-obj`)).body.count, 1, 'the default is stored, so filters see it');
    }
  });

  it('should check each type and name the key in a 400 (the reference puts it under __all__)', async () => {
    await create(t, '/api/extras/custom-fields/', { label: 'When', type: 'date', content_types: ALL });
    for (const s of SUBJECTS) {
      const bad = await t.call('POST', s.path, { ...s.make(`bad-${s.model}`), custom_fields: { tier: 'many' } });
      assert.equal(bad.status, 400);
      assert.deepEqual(bad.body, { __all__: ["Invalid value for custom field 'tier': Value must be an integer."] });
      const date = await t.call('POST', s.path, { ...s.make(`bad-${s.model}`), custom_fields: { when: '2024-13-01' } });
      assertRefused(date, 400, { __all__: ["Invalid value for custom field 'when': Date values must be in the format YYYY-MM-DD."] });
    }
  });

  it('should drop unknown keys and merge a PATCH into the stored data', async () => {
    for (const s of SUBJECTS) {
      const obj = await create(t, s.path, { ...s.make(`merge-${s.model}`), custom_fields: { tier: '7', when: '2024-02-29', bogus: 1 } });
      assert.equal(obj.custom_fields.tier, 7, 'integers are coerced');
      assert.equal('bogus' in obj.custom_fields, false);
      const patched = await t.call('PATCH', `${s.path}${obj.id}/`, { custom_fields: { asset_owner: 'ops' } });
      assert.equal(patched.status, 200, patched.raw);
      assert.deepEqual(patched.body.custom_fields, { asset_owner: 'ops', tier: 7, when: '2024-02-29' });
    }
  });

  it('should coerce booleans and check url, markdown, json, select and multi-select values', async () => {
    const location = SUBJECTS[0];
    await create(t, '/api/extras/custom-fields/', { label: 'Managed', type: 'boolean', content_types: [location.model] });
    await create(t, '/api/extras/custom-fields/', { label: 'Docs', type: 'url', content_types: [location.model] });
    await create(t, '/api/extras/custom-fields/', { label: 'Notes md', type: 'markdown', content_types: [location.model] });
    await create(t, '/api/extras/custom-fields/', { label: 'Extra', type: 'json', content_types: [location.model] });
    const sel = await create(t, '/api/extras/custom-fields/', { label: 'Power', type: 'select', content_types: [location.model] });
    const multi = await create(t, '/api/extras/custom-fields/', { label: 'Feeds', type: 'multi-select', content_types: [location.model] });
    for (const [field, value] of [[sel, 'ac'], [sel, 'dc'], [multi, 'a'], [multi, 'b']] as const) {
      await create(t, '/api/extras/custom-field-choices/', { custom_field: field.id, value });
    }
    const obj = await create(t, location.path, { ...location.make('typed'), custom_fields: { managed: 'yes', docs: 'https://x.example/', notes_md: '# hi', extra: { a: [1] }, power: 'dc', feeds: 'a,b' } });
    assert.deepEqual(
      { managed: obj.custom_fields.managed, extra: obj.custom_fields.extra, power: obj.custom_fields.power, feeds: obj.custom_fields.feeds },
      { managed: true, extra: { a: [1] }, power: 'dc', feeds: ['a', 'b'] },
    );
    const bad = await t.call('PATCH', `${location.path}${obj.id}/`, { custom_fields: { power: 'solar' } });
    assertRefused(bad, 400, { __all__: ["Invalid value for custom field 'power': Invalid choice (solar). Available choices are: ac, dc"] });
    const badMulti = await t.call('PATCH', `${location.path}${obj.id}/`, { custom_fields: { feeds: ['a', 'z'] } });
    assertRefused(badMulti, 400, { __all__: [`Invalid value for custom field 'feeds': Invalid choice(s) (["a", "z"]). Available choices are: a, b`] });
  });

  it('should enforce validation minimum, maximum and regex', async () => {
    await create(t, '/api/extras/custom-fields/', { label: 'Code', type: 'text', validation_minimum: 2, validation_maximum: 4, validation_regex: '^[A-Z]+$', content_types: ['tenancy.tenant'] });
    await create(t, '/api/extras/custom-fields/', { label: 'Rack units', type: 'integer', validation_minimum: 1, validation_maximum: 48, content_types: ['tenancy.tenant'] });
    const cases: [Record<string, unknown>, string][] = [
      [{ code: 'A' }, "Invalid value for custom field 'code': Value must be at least 2 characters in length"],
      [{ code: 'ABCDE' }, "Invalid value for custom field 'code': Value must not exceed 4 characters in length"],
      [{ code: 'ab' }, "Invalid value for custom field 'code': Value must match regex '^[A-Z]+$'"],
      [{ rack_units: 0 }, "Invalid value for custom field 'rack_units': Value must be at least 1"],
      [{ rack_units: 49 }, "Invalid value for custom field 'rack_units': Value must not exceed 48"],
    ];
    for (const [custom_fields, message] of cases) {
      const res = await t.call('POST', '/api/tenancy/tenants/', { name: `v-${JSON.stringify(custom_fields)}`, custom_fields });
      assertRefused(res, 400, { __all__: [message] });
    }
    assert.equal((await t.call('POST', '/api/tenancy/tenants/', { name: 'v-ok', custom_fields: { code: 'AB', rack_units: 48 } })).status, 201);
  });

  it('should order the keys by weight then label and keep grouping as given', async () => {
    await create(t, '/api/extras/custom-fields/', { label: 'Zeta first', type: 'text', weight: 1, grouping: 'Ops', content_types: ['tenancy.tenant'] });
    const last = await create(t, '/api/extras/custom-fields/', { label: 'Alpha last', type: 'text', weight: 500, grouping: 'Ops', content_types: ['tenancy.tenant'] });
    assert.equal(last.grouping, 'Ops');
    const tenant = await create(t, '/api/tenancy/tenants/', { name: 'ordered' });
    const keys = Object.keys(tenant.custom_fields);
    assert.equal(keys[0], 'zeta_first');
    assert.equal(keys[keys.length - 1], 'alpha_last');
    const list = await t.call('GET', '/api/extras/custom-fields/?limit=1');
    assert.equal(list.body.results[0].key, 'zeta_first', 'custom fields list by weight, then label');
  });

  it('should refuse a missing required field without default', async () => {
    await create(t, '/api/extras/custom-fields/', { label: 'Cost center', type: 'text', required: true, content_types: ['extras.status'] });
    const res = await t.call('POST', '/api/extras/statuses/', { name: 'req', content_types: ['dcim.location'], custom_fields: {} });
    assertRefused(res, 400, { __all__: ["Missing required custom field 'cost_center'."] });
    const ok = await t.call('POST', '/api/extras/statuses/', { name: 'req', content_types: ['dcim.location'], custom_fields: { cost_center: 'cc1' } });
    assert.equal(ok.status, 201, ok.raw);
  });
});
