import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';

describe('object-change filters: the reference filter set, no more', () => {
  let t: TestApp;
  let tenant: any;
  before(async () => {
    t = await makeApp();
    tenant = await create(t, '/api/tenancy/tenants/', { name: 'filtered-change' });
  });
  after(() => t.close());

  it('should filter by the fields the reference filters on', async () => {
    const record = (await t.call('GET', `/api/extras/object-changes/?changed_object_id=${tenant.id}`)).body.results[0];
    for (const query of [`request_id=${record.request_id}`, 'action=create', 'user_name=admin', 'object_repr=filtered-change', 'changed_object_type=tenancy.tenant', `id=${record.id}`]) {
      const res = await t.call('GET', `/api/extras/object-changes/?${query}&changed_object_id=${tenant.id}`);
      assert.equal(res.status, 200, `${query}: ${res.raw}`);
      assert.equal(res.body.count, 1, query);
    }
  });

  it('should refuse the fields it does not filter on as unknown', async () => {
    for (const name of ['change_context', 'change_context_detail', 'related_object_type', 'related_object_id', 'object_data']) {
      const res = await t.call('GET', `/api/extras/object-changes/?${name}=x`);
      assert.equal(res.status, 400, name);
      assert.deepEqual(res.body, { [name]: ['Unknown filter field'] });
    }
  });
});
