import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';

// A tree object's parent cannot be itself or one of its descendants (rule parentNotDescendant);
// updates that keep the parent are not walked up the tree again.
let t: TestApp;
let a: any;
let b: any;
let c: any;
before(async () => {
  t = await makeApp();
  a = await create(t, '/api/tenancy/tenant-groups/', { name: 'A' });
  b = await create(t, '/api/tenancy/tenant-groups/', { name: 'B', parent: a.id });
  c = await create(t, '/api/tenancy/tenant-groups/', { name: 'C', parent: b.id });
});
after(() => t.close());

describe('tree parents', () => {
  it('should refuse a descendant or the object itself as parent', async () => {
    for (const parent of [c.id, b.id, a.id]) {
      const res = await t.call('PATCH', `/api/tenancy/tenant-groups/${a.id}/`, { parent });
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, { parent: ['Cannot assign self or child as parent.'] });
    }
    const bulk = await t.call('PATCH', '/api/tenancy/tenant-groups/', [{ id: b.id, parent: c.id }]);
    assert.equal(bulk.status, 400);
    assert.deepEqual(bulk.body, { parent: ['Cannot assign self or child as parent.'] });
  });

  it('should update objects that keep their parent, and move one to a non-descendant', async () => {
    const res = await t.call('PATCH', '/api/tenancy/tenant-groups/', [{ id: b.id, description: 'kept' }, { id: c.id, description: 'kept' }]);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.map((g: any) => [g.description, g.parent.id]), [['kept', a.id], ['kept', b.id]]);
    const moved = await t.call('PATCH', `/api/tenancy/tenant-groups/${c.id}/`, { parent: a.id });
    assert.equal(moved.status, 200);
    assert.equal(moved.body.parent.id, a.id);
  });

  it('should refuse a bulk update whose objects become each other\'s parents, writing nothing', async () => {
    const x = await create(t, '/api/tenancy/tenant-groups/', { name: 'X' });
    const y = await create(t, '/api/tenancy/tenant-groups/', { name: 'Y' });
    const res = await t.call('PATCH', '/api/tenancy/tenant-groups/', [{ id: x.id, parent: y.id }, { id: y.id, parent: x.id }]);
    assert.equal(res.status, 400, res.raw);
    assert.equal((await t.call('GET', `/api/tenancy/tenant-groups/${x.id}/`)).body.parent, null);
    assert.equal((await t.call('GET', `/api/tenancy/tenant-groups/${y.id}/`)).body.parent, null);
  });
});
