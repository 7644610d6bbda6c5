import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { migrate } from '../../src/db/schema/migrate.js';
import { create, makeApp } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';

// Migration 3 stores change-record snapshots with lz4 where PostgreSQL offers it (a storage
// setting: records written before and after read back the same); elsewhere it changes nothing.
let t: TestApp;
const isPostgres = () => t.app.services.dialect.name === 'postgres';

/** Compression method of the snapshot columns (PostgreSQL: 'l' lz4, 'p' pglz, '' the default). */
async function methods(): Promise<string[]> {
  const rows = await sql<{ m: string }>`SELECT attcompression::text AS m FROM pg_attribute WHERE attrelid = 'extras_objectchange'::regclass AND attname IN ('object_data', 'object_data_v2') ORDER BY attname`.execute(t.app.services.dialect.db);
  return rows.rows.map((r) => r.m);
}

async function hasLz4(): Promise<boolean> {
  const rows = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals)`.execute(t.app.services.dialect.db);
  return rows.rows[0].n > 0;
}

let before3: unknown;
before(async () => {
  t = await makeApp();
  // A database from before migration 3: default compression, a change record already written.
  if (isPostgres()) await sql.raw(`ALTER TABLE extras_objectchange ALTER COLUMN object_data SET COMPRESSION pglz, ALTER COLUMN object_data_v2 SET COMPRESSION pglz`).execute(t.app.services.dialect.db);
  await t.app.services.dialect.db.deleteFrom('inventory_migrations').where('id', '=', 3).execute();
  await create(t, '/api/tenancy/tenants/', { name: 'before', comments: 'x'.repeat(5000) });
  before3 = (await t.call('GET', '/api/extras/object-changes/?limit=10')).body.results;
  await migrate(t.app.services.dialect, t.app.services.registry);
});
after(() => t.close());

describe('migration 3: lz4 change snapshots', () => {
  it('should record the migration', async () => {
    const rows = await t.app.services.dialect.db.selectFrom('inventory_migrations').select('id').where('id', '=', 3).execute();
    assert.equal(rows.length, 1);
  });

  it('should compress the snapshot columns with lz4 where PostgreSQL offers it', async (ctx) => {
    if (!isPostgres()) return ctx.skip('PostgreSQL only');
    assert.deepEqual(await methods(), (await hasLz4()) ? ['l', 'l'] : ['p', 'p']);
  });

  it('should read records written before and after it the same way', async () => {
    assert.deepEqual((await t.call('GET', '/api/extras/object-changes/?limit=10')).body.results, before3);
    await create(t, '/api/tenancy/tenants/', { name: 'after', comments: 'y'.repeat(5000) });
    const change = (await t.call('GET', '/api/extras/object-changes/?changed_object_type=tenancy.tenant&limit=10')).body.results.find((c: any) => c.object_repr === 'after');
    assert.equal(change.object_data.comments, 'y'.repeat(5000));
    assert.equal(change.object_data_v2.comments, 'y'.repeat(5000));
  });
});
