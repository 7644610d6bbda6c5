import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import { makeUser } from '../../helpers/users.js';
import { assertRefused } from '../../helpers/refusals.js';
import type { TestApp } from '../../helpers/app.js';
import type { Grant, TestUser } from '../../helpers/users.js';

/**
 * Issue 6 matrix: each action (list, detail, create, bulk update, bulk delete), allowed and
 * forbidden under a constrained permission, on three models. Runs on the database the helper
 * picks (SQLite, or PostgreSQL with DATABASE_URL).
 */
type Spec = {
  path: string;
  modelId: string;
  className: string;
  /** View grants the user needs to name related objects in writes. */
  support: Grant[];
  constraints: unknown;
  setup: (t: TestApp) => Promise<void>;
  inside: (name: string) => Record<string, unknown>;
  outside: (name: string) => Record<string, unknown>;
  /** PATCH body that takes an inside object outside the constraints. */
  moveOut: Record<string, unknown>;
};

const SPECS: Spec[] = [
  {
    path: '/api/tenancy/tenants/', modelId: 'tenancy.tenant', className: 'Tenant',
    support: [{ object_types: ['tenancy.tenantgroup'], actions: ['view'] }],
    constraints: { tenant_group__name: 'Allowed' },
    setup: async (t) => {
      await create(t, '/api/tenancy/tenant-groups/', { name: 'Allowed' });
      await create(t, '/api/tenancy/tenant-groups/', { name: 'Other' });
    },
    inside: (name) => ({ name, tenant_group: 'Allowed' }),
    outside: (name) => ({ name, tenant_group: 'Other' }),
    moveOut: { tenant_group: 'Other' },
  },
  {
    path: '/api/dcim/locations/', modelId: 'dcim.location', className: 'Location',
    support: [{ object_types: ['dcim.locationtype', 'extras.status'], actions: ['view'] }],
    constraints: { status__name: 'Active', location_type__name__in: ['Site', 'Campus'] },
    setup: async (t) => { await create(t, '/api/dcim/location-types/', { name: 'Site', content_types: [] }); },
    inside: (name) => ({ name, location_type: 'Site', status: 'Active' }),
    outside: (name) => ({ name, location_type: 'Site', status: 'Planned' }),
    moveOut: { status: 'Planned' },
  },
  {
    path: '/api/extras/statuses/', modelId: 'extras.status', className: 'Status',
    support: [],
    constraints: [{ name__istartswith: 'ok-' }, { color: '00ff00' }],
    setup: async () => {},
    inside: (name) => ({ name: `ok-${name}`, content_types: ['dcim.location'] }),
    outside: (name) => ({ name: `no-${name}`, content_types: ['dcim.location'] }),
    moveOut: { name: 'moved-out' },
  },
];

const ids = (res: { body: any }) => (res.body.results as { id: string }[]).map((r) => r.id).sort();

for (const spec of SPECS) {
  describe(`${spec.path} under a constrained permission`, () => {
    let t: TestApp;
    let user: TestUser;
    let viewer: TestUser;
    const obj: Record<string, any> = {};
    const fresh = async (key: string, body: Record<string, unknown>) => { obj[key] = await create(t, spec.path, body); return obj[key]; };
    const exists = async (id: string) => (await t.call('GET', `${spec.path}${id}/`)).status === 200;
    const count = async () => (await t.call('GET', `${spec.path}?limit=1`)).body.count as number;

    before(async () => {
      t = await makeApp();
      await spec.setup(t);
      for (const key of ['in1', 'in2', 'in3']) await fresh(key, spec.inside(`${spec.modelId}-${key}`));
      for (const key of ['out1', 'out2']) await fresh(key, spec.outside(`${spec.modelId}-${key}`));
      user = await makeUser(t, 'limited', [...spec.support, { object_types: [spec.modelId], actions: ['view', 'add', 'change', 'delete'], constraints: spec.constraints }]);
      viewer = await makeUser(t, 'viewer', [...spec.support, { object_types: [spec.modelId], actions: ['view'], constraints: spec.constraints }]);
    });
    after(() => t.close());

    it('list: should show exactly the objects inside the constraints, counted in SQL', async () => {
      const res = await user.call('GET', `${spec.path}?limit=1000`);
      assert.equal(res.status, 200);
      for (const key of ['in1', 'in2', 'in3']) assert.ok(ids(res).includes(obj[key].id), key);
      for (const key of ['out1', 'out2']) assert.ok(!ids(res).includes(obj[key].id), key);
      assert.equal(res.body.count, res.body.results.length);
      const filtered = await user.call('GET', `${spec.path}?id=${obj.out1.id}`);
      assert.equal(filtered.body.count, 0, 'a filter naming a forbidden object finds nothing');
    });

    it('list: should refuse a user without any view grant', async () => {
      const none = await makeUser(t, 'nobody');
      const res = await none.call('GET', spec.path);
      assert.equal(res.status, 403);
      assert.deepEqual(res.body, { detail: 'You do not have permission to perform this action.' });
    });

    it('detail: should return an object inside and 404 an object outside', async () => {
      assert.equal((await user.call('GET', `${spec.path}${obj.in1.id}/`)).status, 200);
      for (const method of ['GET', 'PATCH', 'PUT', 'DELETE'] as const) {
        const res = await user.call(method, `${spec.path}${obj.out1.id}/`, method === 'GET' || method === 'DELETE' ? undefined : { description: 'x' });
        assert.equal(res.status, 404, method);
        assert.deepEqual(res.body, { detail: `No ${spec.className} matches the given query.` });
      }
      assert.ok(await exists(obj.out1.id));
    });

    it('create: should accept an object inside the constraints', async () => {
      const res = await user.call('POST', spec.path, spec.inside('created-in'));
      assert.equal(res.status, 201, res.raw);
      assert.ok(await exists(res.body.id));
    });

    it('create: should refuse (403) an object outside, and a list with one outside, leaving nothing', async () => {
      const before = await count();
      const one = await user.call('POST', spec.path, spec.outside('created-out'));
      assert.equal(one.status, 403, one.raw);
      assert.deepEqual(one.body, { detail: 'You do not have permission to perform this action.' });
      const many = await user.call('POST', spec.path, [spec.inside('batch-in'), spec.outside('batch-out')]);
      assert.equal(many.status, 403, many.raw);
      assert.equal(await count(), before);
    });

    it('create: should refuse a user with view but no add grant', async () => {
      const res = await viewer.call('POST', spec.path, spec.inside('viewer-in'));
      assertRefused(res, 403, { detail: 'You do not have permission to perform this action.' });
    });

    it('bulk update: should change objects inside the constraints', async () => {
      const res = await user.call('PATCH', spec.path, [{ id: obj.in1.id, description: 'bulk-ok' }, { id: obj.in2.id, description: 'bulk-ok' }]);
      assert.equal(res.status, 200, res.raw);
      assert.deepEqual(res.body.map((r: any) => r.description), ['bulk-ok', 'bulk-ok']);
    });

    it('bulk update: should refuse all (403) when one object would leave the constraints', async () => {
      const res = await user.call('PATCH', spec.path, [{ id: obj.in1.id, description: 'never' }, { id: obj.in2.id, ...spec.moveOut }]);
      assert.equal(res.status, 403, res.raw);
      const in1 = (await t.call('GET', `${spec.path}${obj.in1.id}/`)).body;
      assert.equal(in1.description, 'bulk-ok', 'the allowed half was rolled back');
      assert.equal((await user.call('GET', `${spec.path}${obj.in2.id}/`)).status, 200, 'in2 still inside');
    });

    it('bulk update: should not touch objects outside the constraints (skipped as the reference)', async () => {
      const res = await user.call('PATCH', spec.path, [{ id: obj.out1.id, description: 'sneaky' }]);
      assert.equal(res.status, 200, res.raw);
      assert.deepEqual(res.body, []);
      assert.notEqual((await t.call('GET', `${spec.path}${obj.out1.id}/`)).body.description, 'sneaky');
      assertRefused(await viewer.call('PATCH', spec.path, [{ id: obj.in1.id, description: 'x' }]), 403, { detail: 'You do not have permission to perform this action.' }, 'no change grant');
    });

    it('bulk delete: should delete objects inside the constraints', async () => {
      const res = await user.call('DELETE', spec.path, [{ id: obj.in3.id }]);
      assert.equal(res.status, 204, res.raw);
      assert.equal(await exists(obj.in3.id), false);
    });

    it('bulk delete: should leave objects outside the constraints in place', async () => {
      const res = await user.call('DELETE', spec.path, [{ id: obj.out1.id }, { id: obj.out2.id }]);
      assert.equal(res.status, 204);
      assert.ok(await exists(obj.out1.id));
      assert.ok(await exists(obj.out2.id));
      assertRefused(await viewer.call('DELETE', spec.path, [{ id: obj.in1.id }]), 403, { detail: 'You do not have permission to perform this action.' }, 'no delete grant');
      assert.ok(await exists(obj.in1.id));
    });
  });
}
