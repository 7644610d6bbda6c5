import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import { SUBJECTS, makeEach, prepareSubjects } from './fixtures.js';
import { KEY_NOT_IDENTIFIER, assertRefused, countOf } from '../../helpers/refusals.js';
import type { TestApp } from '../../helpers/app.js';

let t: TestApp;
let objs: Record<string, any>;
const CF = '/api/extras/computed-fields/';

before(async () => {
  t = await makeApp();
  await prepareSubjects(t);
  await create(t, '/api/extras/custom-fields/', { label: 'Owner', type: 'text', content_types: SUBJECTS.map((s) => s.model) });
  for (const s of SUBJECTS) {
    await create(t, CF, { label: `Shout ${s.model}`, key: `shout_${s.model.split('.')[1]}`, content_type: s.model, template: '{{ obj.name | upper }}!', weight: 10 });
    await create(t, CF, { label: `Owner ${s.model}`, key: `owner_${s.model.split('.')[1]}`, content_type: s.model, template: 'owned by {{ obj.cf.owner }}', weight: 20 });
  }
  objs = await makeEach(t, 'edge-1', { custom_fields: { owner: 'ops' } });
});
after(() => t.close());

describe('computed fields (catalogue computedfield rules)', () => {
  for (const s of SUBJECTS) {
    it(`should render each template per object only with include=computed_fields (${s.model})`, async () => {
      const short = s.model.split('.')[1];
      const plain = await t.call('GET', `${s.path}${objs[s.model].id}/`);
      assert.equal('computed_fields' in plain.body, false);
      const res = await t.call('GET', `${s.path}?include=computed_fields&name=edge-1`);
      assert.deepEqual(res.body.results[0].computed_fields, { [`shout_${short}`]: 'EDGE-1!', [`owner_${short}`]: 'owned by ops' });
      const patched = await t.call('PATCH', `${s.path}${objs[s.model].id}/`, { name: 'edge-2' });
      assert.equal(patched.body.computed_fields[`shout_${short}`], 'EDGE-2!', 'write responses carry the opt-in keys');
      await t.call('PATCH', `${s.path}${objs[s.model].id}/`, { name: 'edge-1' });
    });
  }

  it('should follow foreign keys and print an object as its display text', async () => {
    await create(t, CF, { label: 'Where', content_type: 'dcim.location', template: '{{ obj.status.name }} / {{ obj.location_type }} / {{ obj }}' });
    const res = await t.call('GET', `/api/dcim/locations/${objs['dcim.location'].id}/?include=computed_fields`);
    assert.equal(res.body.computed_fields.where, 'Active / Campus / edge-1');
  });

  it('should fall back on a render error and leave templates no way to the process', async () => {
    await create(t, CF, { label: 'Broken', content_type: 'tenancy.tenant', template: '{{ obj.name.nope.deeper() }}', fallback_value: 'n/a' });
    await create(t, CF, { label: 'Escape', content_type: 'tenancy.tenant', template: '{{ range.constructor("return process.pid")() }}', fallback_value: 'blocked' });
    await create(t, CF, { label: 'Proto', content_type: 'tenancy.tenant', template: '[{{ obj.__proto__ }}{{ "".constructor }}]' });
    await create(t, CF, { label: 'Spin', content_type: 'tenancy.tenant', template: '{% for i in range(999) %}{% for j in range(999) %}x{% endfor %}{% endfor %}', fallback_value: 'too long' });
    const res = await t.call('GET', `/api/tenancy/tenants/${objs['tenancy.tenant'].id}/?include=computed_fields`);
    assert.equal(res.body.computed_fields.broken, 'n/a');
    assert.equal(res.body.computed_fields.escape, 'blocked');
    assert.equal(res.body.computed_fields.proto, '[]');
    assert.equal(res.body.computed_fields.spin, 'too long');
  });

  it('should refuse a template with a syntax error, and derive and check the key', async () => {
    const bad = await t.call('POST', CF, { label: 'Bad', content_type: 'dcim.location', template: '{% if %}' });
    assert.equal(bad.status, 400);
    assert.match(bad.body.template[0], /^Template syntax error/);
    const made = await create(t, CF, { label: 'Rack Count-2', content_type: 'dcim.location', template: 'x' });
    assert.equal(made.key, 'rack_count_2');
    assert.deepEqual(Object.keys(made).filter((k) => ['content_type', 'fallback_value', 'advanced_ui'].includes(k)), ['content_type', 'fallback_value', 'advanced_ui']);
    const before = await countOf(t, CF);
    for (const key of ['9lives', 'has-hyphen']) {
      const res = await t.call('POST', CF, { label: 'K', key, content_type: 'dcim.location', template: 'x' });
      assertRefused(res, 400, { key: [KEY_NOT_IDENTIFIER] }, key);
    }
    assert.equal(await countOf(t, CF), before, 'no refused computed field is written');
  });
});
