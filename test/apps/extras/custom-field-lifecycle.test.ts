import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import { SUBJECTS, makeEach, prepareSubjects } from './fixtures.js';
import { KEY_NOT_IDENTIFIER, assertRefused, countOf } from '../../helpers/refusals.js';
import type { TestApp } from '../../helpers/app.js';

const ALL = SUBJECTS.map((s) => s.model);
let t: TestApp;

before(async () => {
  t = await makeApp();
  await prepareSubjects(t);
});
after(() => t.close());

/** Raw stored custom field data of an object, read through a fresh custom field of the same key. */
async function customFields(path: string, id: string): Promise<Record<string, unknown>> {
  return (await t.call('GET', `${path}${id}/`)).body.custom_fields;
}

describe('custom field definitions', () => {
  it('should derive the key from the label and render the reference shape', async () => {
    const cf = await create(t, '/api/extras/custom-fields/', { label: 'Site Contact-Name', type: 'text', content_types: ['dcim.location'] });
    assert.equal(cf.key, 'site_contact_name');
    assert.deepEqual(cf.type, { value: 'text', label: 'Text' });
    assert.deepEqual(cf.filter_logic, { value: 'loose', label: 'Loose' });
    assert.deepEqual(cf.content_types, ['dcim.location']);
    assert.equal(cf.display, 'Site Contact-Name');
  });

  it('should only take content types of models with custom fields', async () => {
    const res = await t.call('POST', '/api/extras/custom-fields/', { label: 'Odd', type: 'text', content_types: ['dcim.location', 'extras.customfield'] });
    assertRefused(res, 400, { content_types: ['Invalid content type: extras.customfield'] });
    const rel = await t.call('POST', '/api/extras/relationships/', { label: 'Odd', source_type: 'dcim.location', destination_type: 'users.token' });
    assertRefused(rel, 400, { destination_type: ['Invalid content type: users.token'] });
  });

  it('should refuse keys that are not identifiers, and changes of key or type', async () => {
    const bad = await t.call('POST', '/api/extras/custom-fields/', { label: 'x', key: '1-bad key', type: 'text', content_types: ['dcim.location'] });
    assertRefused(bad, 400, { key: ['Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.'] }, bad.raw);
    const before = await countOf(t, '/api/extras/custom-fields/');
    for (const key of ['has-hyphen', '9lives']) {
      const res = await t.call('POST', '/api/extras/custom-fields/', { label: 'x', key, type: 'text', content_types: ['dcim.location'] });
      assertRefused(res, 400, { key: [KEY_NOT_IDENTIFIER] }, key);
    }
    assert.equal(await countOf(t, '/api/extras/custom-fields/'), before, 'no refused custom field is written');
    const cf = await create(t, '/api/extras/custom-fields/', { label: 'Fixed', type: 'text', content_types: ['dcim.location'] });
    assertRefused(await t.call('PATCH', `/api/extras/custom-fields/${cf.id}/`, { key: 'other' }), 400, { key: ['Key cannot be changed once created'] });
    assertRefused(await t.call('PATCH', `/api/extras/custom-fields/${cf.id}/`, { type: 'integer' }), 400, { type: ['Type cannot be changed once created'] });
    assert.equal((await t.call('PATCH', `/api/extras/custom-fields/${cf.id}/`, { label: 'Fixed 2', weight: 5 })).status, 200);
  });

  it('should accept validation limits only on the types that use them, and check the default', async () => {
    const res = await t.call('POST', '/api/extras/custom-fields/', { label: 'Flag', type: 'boolean', validation_minimum: 1, content_types: ['dcim.location'] });
    assertRefused(res, 400, { validation_minimum: ['A minimum value may not be set for fields of this type'] });
    const regex = await t.call('POST', '/api/extras/custom-fields/', { label: 'Day', type: 'date', validation_regex: '^2', content_types: ['dcim.location'] });
    assertRefused(regex, 400, { validation_regex: ['Regular expression validation is not supported for fields of this type'] });
    const dflt = await t.call('POST', '/api/extras/custom-fields/', { label: 'Count', type: 'integer', default: 'lots', content_types: ['dcim.location'] });
    assertRefused(dflt, 400, { default: ['Invalid default value "lots": Value must be an integer.'] });
    const sel = await t.call('POST', '/api/extras/custom-fields/', { label: 'Pick', type: 'select', default: 'x', content_types: ['dcim.location'] });
    assertRefused(sel, 400, { default: ['The specified default value (x) is not listed as an available choice.'] });
  });

  it('should remove the values of a deleted custom field from every object', async () => {
    const cf = await create(t, '/api/extras/custom-fields/', { label: 'Temp', type: 'text', content_types: ALL });
    const objs = await makeEach(t, 'temp-holder', { custom_fields: { temp: 'kept?' } });
    assert.equal((await t.call('DELETE', `/api/extras/custom-fields/${cf.id}/`)).status, 204);
    await create(t, '/api/extras/custom-fields/', { label: 'Temp', type: 'text', content_types: ALL });
    for (const s of SUBJECTS) assert.equal((await customFields(s.path, objs[s.model].id)).temp, null, s.model);
  });

  it('should remove values from the models whose content type is taken off the field', async () => {
    const cf = await create(t, '/api/extras/custom-fields/', { label: 'Scope', type: 'text', content_types: ALL });
    const objs = await makeEach(t, 'scope-holder', { custom_fields: { scope: 'v' } });
    await t.call('PATCH', `/api/extras/custom-fields/${cf.id}/`, { content_types: ['tenancy.tenant'] });
    assert.equal('scope' in (await customFields('/api/dcim/locations/', objs['dcim.location'].id)), false);
    assert.equal((await customFields('/api/tenancy/tenants/', objs['tenancy.tenant'].id)).scope, 'v');
    await t.call('PATCH', `/api/extras/custom-fields/${cf.id}/`, { content_types: ALL });
    assert.equal((await customFields('/api/dcim/locations/', objs['dcim.location'].id)).scope, null, 'the value was removed, not hidden');
  });
});

describe('custom field choices', () => {
  it('should only attach to selection fields and respect the field limits', async () => {
    const text = await create(t, '/api/extras/custom-fields/', { label: 'Plain', type: 'text', content_types: ['dcim.location'] });
    const res = await t.call('POST', '/api/extras/custom-field-choices/', { custom_field: text.id, value: 'a' });
    assertRefused(res, 400, { __all__: ['Custom field choices can only be assigned to selection fields.'] });
    const sel = await create(t, '/api/extras/custom-fields/', { label: 'Short', type: 'select', validation_maximum: 3, content_types: ['dcim.location'] });
    const long = await t.call('POST', '/api/extras/custom-field-choices/', { custom_field: sel.id, value: 'toolong' });
    assertRefused(long, 400, { __all__: ['Value must not exceed 3 characters long.'] });
  });

  it('should rewrite a renamed choice in objects and refuse deleting one in use', async () => {
    const sel = await create(t, '/api/extras/custom-fields/', { label: 'Grid', type: 'select', content_types: ALL });
    const multi = await create(t, '/api/extras/custom-fields/', { label: 'Grids', type: 'multi-select', content_types: ALL });
    const one = await create(t, '/api/extras/custom-field-choices/', { custom_field: sel.id, value: 'north' });
    const many = await create(t, '/api/extras/custom-field-choices/', { custom_field: multi.id, value: 'north' });
    await create(t, '/api/extras/custom-field-choices/', { custom_field: multi.id, value: 'south' });
    const objs = await makeEach(t, 'grid-holder', { custom_fields: { grid: 'north', grids: ['north', 'south'] } });
    await t.call('PATCH', `/api/extras/custom-field-choices/${one.id}/`, { value: 'nord' });
    await t.call('PATCH', `/api/extras/custom-field-choices/${many.id}/`, { value: 'nord' });
    for (const s of SUBJECTS) {
      const data = await customFields(s.path, objs[s.model].id);
      assert.deepEqual([data.grid, data.grids], ['nord', ['nord', 'south']], s.model);
    }
    const blocked = await t.call('DELETE', `/api/extras/custom-field-choices/${one.id}/`);
    assert.equal(blocked.status, 409);
    assert.match(blocked.body.detail, /in active use/);
    assert.equal((await t.call('DELETE', `/api/extras/custom-fields/${sel.id}/`)).status, 204, 'the field takes its choices with it');
  });
});
