import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { buildTableSpecs, createTableSql } from '../../src/db/schema/build-schema.js';
import { migrate } from '../../src/db/schema/migrate.js';
import { create, makeApp } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';

// Databases made before auth.group had integer ids hold UUID group keys (and UUID columns in
// PostgreSQL). Migration 2 must renumber them and keep every link.
let t: TestApp;
const OLD = { ops: 'b1c2d3e4-0000-4000-8000-000000000001', audit: 'b1c2d3e4-0000-4000-8000-000000000002' };
const TABLES = ['users_group', 'users_user__groups', 'users_objectpermission__groups'];

/** Recreates the group tables as an older build made them: every id column a UUID. */
async function makeOldSchema(): Promise<void> {
  const { dialect, registry } = t.app.services;
  for (const spec of buildTableSpecs(registry).filter((s) => TABLES.includes(s.name))) {
    const old = { ...spec, columns: spec.columns.map((c) => ({ ...c, storage: c.storage === 'integer' ? 'uuid' as const : c.storage })) };
    await sql.raw(`DROP TABLE "${spec.name}"`).execute(dialect.db);
    await sql.raw(createTableSql(dialect, old)).execute(dialect.db);
  }
  await dialect.db.deleteFrom('inventory_migrations').where('id', '=', 2).execute();
}

let userId: string;
before(async () => {
  t = await makeApp();
  userId = (await create(t, '/api/users/users/', { username: 'legacy' })).id;
  const perm = await create(t, '/api/users/permissions/', { name: 'legacy-perm', object_types: ['dcim.location'], actions: ['view'] });
  await makeOldSchema();
  const db = t.app.services.dialect.db;
  await db.insertInto('users_group').values([{ id: OLD.ops, name: 'ops' }, { id: OLD.audit, name: 'audit' }]).execute();
  await db.insertInto('users_user__groups').values([{ source_id: userId, target_id: OLD.ops }, { source_id: userId, target_id: OLD.audit }]).execute();
  await db.insertInto('users_objectpermission__groups').values({ source_id: perm.id, target_id: OLD.ops }).execute();
  await migrate(t.app.services.dialect, t.app.services.registry);
});
after(() => t.close());

describe('migration 2: integer group ids', () => {
  it('should renumber stored groups in name order and keep their users and permissions', async () => {
    const groups = (await t.call('GET', '/api/users/groups/')).body.results;
    assert.deepEqual(groups.map((g: { id: number; name: string; user_count: number }) => [g.id, g.name, g.user_count]), [[1, 'audit', 1], [2, 'ops', 1]]);
    const user = (await t.call('GET', `/api/users/users/${userId}/`)).body;
    assert.deepEqual(user.groups.map((g: { id: number }) => g.id).sort(), [1, 2]);
    const perm = (await t.call('GET', '/api/users/permissions/?name=legacy-perm')).body.results[0];
    assert.deepEqual(perm.groups.map((g: { id: number }) => g.id), [2]);
  });

  it('should give new groups the next integer id', async () => {
    assert.equal((await create(t, '/api/users/groups/', { name: 'new' })).id, 3);
  });
});
