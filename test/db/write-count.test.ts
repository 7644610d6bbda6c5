import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';

/**
 * Bulk writes cost a fixed number of statements whatever their size (issue 7): references,
 * uniqueness, rules, rows, links and change records are read and written per batch, not per object.
 */

let t: TestApp;
let buildings: any[];
let tenants: any[];

/** Statements executed by one request, which must answer `status`. */
async function counted(method: 'POST' | 'PATCH' | 'DELETE', body: unknown, status: number): Promise<{ statements: number; body: any }> {
  const dialect = t.app.services.dialect;
  const start = dialect.queryCount();
  const res = await t.call(method, '/api/dcim/locations/', body);
  assert.equal(res.status, status, res.raw.slice(0, 500));
  return { statements: dialect.queryCount() - start, body: res.body };
}

/** Rooms under the buildings, naming their type and status by natural key and the rest by id. */
function rooms(prefix: string, n: number): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, i) => ({
    name: `${prefix}-${i}`, location_type: 'Room', status: 'Active', parent: buildings[i % buildings.length].id,
    tenant: tenants[i % tenants.length].id, tags: ['red', 'blue'], custom_fields: { owner: `team ${i % 3}`, cost: i },
  }));
}

before(async () => {
  t = await makeApp({ maxPageSize: 1000 });
  await create(t, '/api/dcim/location-types/', { name: 'Site', content_types: ['dcim.location'] });
  await create(t, '/api/dcim/location-types/', { name: 'Building', parent: 'Site' });
  await create(t, '/api/dcim/location-types/', { name: 'Room', parent: 'Building' });
  await create(t, '/api/extras/tags/', [{ name: 'red', content_types: ['dcim.location'] }, { name: 'blue', content_types: ['dcim.location'] }]);
  await create(t, '/api/extras/custom-fields/', [
    { key: 'owner', label: 'Owner', type: 'text', content_types: ['dcim.location'] },
    { key: 'cost', label: 'Cost', type: 'integer', content_types: ['dcim.location'] },
  ]);
  tenants = await create(t, '/api/tenancy/tenants/', Array.from({ length: 5 }, (_, i) => ({ name: `tenant-${i}` })));
  const sites = await create(t, '/api/dcim/locations/', Array.from({ length: 3 }, (_, i) => ({ name: `site-${i}`, location_type: 'Site', status: 'Active' })));
  buildings = await create(t, '/api/dcim/locations/', Array.from({ length: 7 }, (_, i) => ({ name: `bldg-${i}`, location_type: 'Building', status: 'Active', parent: sites[i % 3].id })));
});
after(() => t.close());

describe('bulk write statement counts', () => {
  let small: any[];
  let large: any[];

  it('should create 100 locations with a few statements more than 10', async () => {
    const a = await counted('POST', rooms('small', 10), 201);
    const b = await counted('POST', rooms('large', 100), 201);
    [small, large] = [a.body, b.body];
    assert.ok(b.statements <= a.statements + 5, `10 objects took ${a.statements} statements, 100 took ${b.statements}`);
    assert.equal(large.length, 100);
    assert.deepEqual(large[42].custom_fields, { owner: 'team 0', cost: 42 });
    assert.equal(large[42].tags.length, 2);
  });

  it('should PATCH 100 locations with a few statements more than 10', async () => {
    const patch = (list: any[]) => list.map((o, i) => ({ id: o.id, description: `patched ${i}`, tenant: tenants[(i + 1) % tenants.length].id, asn: 65000 + i, custom_fields: { cost: 1000 + i } }));
    const a = await counted('PATCH', patch(small), 200);
    const b = await counted('PATCH', patch(large), 200);
    assert.ok(b.statements <= a.statements + 5, `10 objects took ${a.statements} statements, 100 took ${b.statements}`);
    const got = (await t.call('GET', `/api/dcim/locations/${large[7].id}/`)).body;
    assert.equal(got.description, 'patched 7');
    assert.equal(got.tenant.id, tenants[8 % tenants.length].id);
    assert.equal(got.asn, 65007);
    assert.deepEqual(got.custom_fields, { owner: 'team 1', cost: 1007 });
  });

  it('should record one change per object with the request id of the bulk write', async () => {
    const changes = (await t.call('GET', `/api/extras/object-changes/?changed_object_id=${large[3].id}&limit=10`)).body.results;
    assert.deepEqual(changes.map((c: { action: { value: string } }) => c.action.value).sort(), ['create', 'update']);
    const update = changes.find((c: { action: { value: string } }) => c.action.value === 'update');
    const same = (await t.call('GET', `/api/extras/object-changes/?request_id=${update.request_id}&limit=1000`)).body;
    assert.equal(same.count, 100);
    assert.equal(update.object_data.description, 'patched 3');
  });

  it('should DELETE 100 locations with a few statements more than 10', async () => {
    const a = await counted('DELETE', small.map((o) => ({ id: o.id })), 204);
    const b = await counted('DELETE', large.map((o) => ({ id: o.id })), 204);
    assert.ok(b.statements <= a.statements + 5, `10 objects took ${a.statements} statements, 100 took ${b.statements}`);
  });
});

describe('bulk write checks', () => {
  it('should name duplicates inside the batch and against stored rows, per item', async () => {
    await create(t, '/api/dcim/locations/', rooms('dup', 1));
    const body = [...rooms('dup', 1), ...rooms('fresh', 1), ...rooms('twice', 1), ...rooms('twice', 1)];
    const res = await counted('POST', body, 400);
    const message = ['A location with this name already exists within the parent location.'];
    assert.deepEqual(res.body, [{ name: message }, {}, {}, { name: message }]);
  });

  it('should refuse a root-level duplicate name', async () => {
    const res = await counted('POST', [{ name: 'site-0', location_type: 'Site', status: 'Active' }, { name: 'site-9', location_type: 'Site', status: 'Active' }], 400);
    assert.deepEqual(res.body, [{ name: ['A root-level location with this name already exists.'] }, {}]);
  });

  it('should run the model rules on every object and report each failure in place', async () => {
    const site = (await t.call('GET', '/api/dcim/locations/?name=site-1')).body.results[0];
    const body = [...rooms('ok', 2), { name: 'stray', location_type: 'Room', status: 'Active', parent: buildings[0].id }, { name: 'wrong', location_type: 'Room', status: 'Active', parent: site.id }];
    const res = await counted('POST', body, 400);
    assert.deepEqual(res.body.slice(0, 3), [{}, {}, {}]);
    assert.deepEqual(res.body[3], { parent: ['A Location with type Room can only have a Location with type Building as its parent.'] });
  });
});
