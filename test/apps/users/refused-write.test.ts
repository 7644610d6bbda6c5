import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../../src/core/config.js';
import { create, makeApp } from '../../helpers/app.js';
import { makeUser } from '../../helpers/users.js';
import type { TestApp } from '../../helpers/app.js';
import type { TestUser } from '../../helpers/users.js';

let t: TestApp;
let user: TestUser;
let inside: any;
let inside2: any;

/** Every table of the schema, each as its rows rendered to sorted JSON strings. */
async function dumpDatabase(): Promise<Map<string, string[]>> {
  const { dialect } = t.app.services;
  const out = new Map<string, string[]>();
  for (const table of [...(await dialect.listTables()).keys()].sort()) {
    const rows = await dialect.db.selectFrom(table).selectAll().execute();
    out.set(table, rows.map((r) => JSON.stringify(r, (_k, v) => (v instanceof Date ? v.toISOString() : v))).sort());
  }
  return out;
}

async function assertUnchangedBy(label: string, write: () => Promise<{ status: number; raw: string }>, status = 403) {
  const beforeDump = await dumpDatabase();
  const res = await write();
  assert.equal(res.status, status, `${label}: ${res.raw}`);
  const afterDump = await dumpDatabase();
  assert.deepEqual([...afterDump.keys()], [...beforeDump.keys()]);
  for (const [table, rows] of beforeDump) assert.deepEqual(afterDump.get(table), rows, `${label}: table ${table} changed`);
}

before(async () => {
  // No embedded queue: its heartbeat (every 10 s) and the outbox publisher write in the background,
  // which a slow dump of every table would see as a change. The refused write's own transaction is the same.
  t = await makeApp({ queue: { ...loadConfig({}).queue, embedded: false } });
  await create(t, '/api/tenancy/tenant-groups/', { name: 'Allowed' });
  await create(t, '/api/tenancy/tenant-groups/', { name: 'Other' });
  await create(t, '/api/extras/tags/', { name: 'red', content_types: ['tenancy.tenant'] });
  inside = await create(t, '/api/tenancy/tenants/', { name: 'kept', tenant_group: 'Allowed', tags: ['red'] });
  inside2 = await create(t, '/api/tenancy/tenants/', { name: 'kept2', tenant_group: 'Allowed' });
  user = await makeUser(t, 'writer', [
    { object_types: ['extras.tag'], actions: ['view'] },
    { object_types: ['tenancy.tenantgroup'], actions: ['view'], constraints: { name__in: ['Allowed', 'Other'] } },
    { object_types: ['tenancy.tenant'], actions: ['view', 'add', 'change', 'delete'], constraints: { tenant_group__name: 'Allowed' } },
  ]);
});
after(() => t.close());

describe('a write refused by a constraint', () => {
  it('should leave every table as it was (create, list create, update, bulk update)', async () => {
    await assertUnchangedBy('create outside', () => user.call('POST', '/api/tenancy/tenants/', { name: 'new', tenant_group: 'Other', tags: ['red'] }));
    await assertUnchangedBy('list create', () => user.call('POST', '/api/tenancy/tenants/', [{ name: 'a', tenant_group: 'Allowed', tags: ['red'] }, { name: 'b', tenant_group: 'Other' }]));
    await assertUnchangedBy('patch out', () => user.call('PATCH', `/api/tenancy/tenants/${inside.id}/`, { tenant_group: 'Other', tags: [], description: 'moved' }));
    await assertUnchangedBy('put out', () => user.call('PUT', `/api/tenancy/tenants/${inside.id}/`, { name: 'renamed', tenant_group: 'Other' }));
    await assertUnchangedBy('bulk patch', () => user.call('PATCH', '/api/tenancy/tenants/', [{ id: inside.id, description: 'x', tags: [] }, { id: inside2.id, tenant_group: 'Other' }]));
  });

  it('should leave every table as it was when a related object is not viewable (400)', async () => {
    const hidden = await create(t, '/api/tenancy/tenant-groups/', { name: 'Hidden' });
    const beforeDump = await dumpDatabase();
    const res = await user.call('POST', '/api/tenancy/tenants/', { name: 'c', tenant_group: hidden.id });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { tenant_group: [`Related object not found using the provided attributes: {'pk': UUID('${hidden.id}')}`] });
    assert.deepEqual(await dumpDatabase(), beforeDump);
  });

  it('should still accept the same write inside the constraints', async () => {
    const ok = await user.call('POST', '/api/tenancy/tenants/', { name: 'new', tenant_group: 'Allowed', tags: ['red'] });
    assert.equal(ok.status, 201, ok.raw);
  });
});
