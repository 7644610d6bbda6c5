import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { migrate } from '../../src/db/schema/migrate.js';
import { create, makeApp } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';

// Migration 3 keeps change-record snapshots as json documents (PostgreSQL: json text instead of
// jsonb, lz4 where the server offers it). Records written before and after it read back the same,
// keys in the same order; SQLite keeps its text columns.
let t: TestApp;
const isPostgres = () => t.app.services.dialect.name === 'postgres';
const db = () => t.app.services.dialect.db;

/** Type and compression of the snapshot columns (PostgreSQL). */
async function columns(): Promise<string[]> {
  const rows = await sql<{ c: string }>`SELECT atttypid::regtype::text || ' ' || attcompression::text AS c FROM pg_attribute WHERE attrelid = 'extras_objectchange'::regclass AND attname IN ('object_data', 'object_data_v2') ORDER BY attname`.execute(db());
  return rows.rows.map((r) => r.c.trim());
}

async function hasLz4(): Promise<boolean> {
  const rows = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals)`.execute(db());
  return rows.rows[0].n > 0;
}

/** Change records of tenants as the API gives them (raw text, so key order counts). */
async function tenantChanges(): Promise<string> {
  return (await t.call('GET', '/api/extras/object-changes/?changed_object_type=tenancy.tenant&limit=100')).raw;
}

const tenant = (name: string) => ({ name, comments: `${name} ${'x'.repeat(5000)} → ü`, description: 'déjà vu', custom_fields: { zeta: 'z', alpha: 1, b: 'bee', mid: 'm' } });

let written: string;
before(async () => {
  t = await makeApp();
  await create(t, '/api/extras/custom-fields/', ['zeta', 'alpha', 'b', 'mid'].map((key) => ({ key, label: `L${key}`, type: key === 'alpha' ? 'integer' : 'text', content_types: ['tenancy.tenant'] })));
  // A database from before migration 5: jsonb snapshot columns (pglz), records already written.
  if (isPostgres()) {
    await sql.raw(`ALTER TABLE extras_objectchange ALTER COLUMN object_data TYPE jsonb USING object_data::jsonb, ALTER COLUMN object_data_v2 TYPE jsonb USING object_data_v2::jsonb`).execute(db());
    await sql.raw(`ALTER TABLE extras_objectchange ALTER COLUMN object_data SET COMPRESSION pglz, ALTER COLUMN object_data_v2 SET COMPRESSION pglz`).execute(db());
  }
  await db().deleteFrom('inventory_migrations').where('id', '=', 5).execute();
  const made = await create(t, '/api/tenancy/tenants/', tenant('before'));
  await t.call('PATCH', `/api/tenancy/tenants/${made.id}/`, { description: 'plus ça change' });
  written = await tenantChanges();
  await migrate(t.app.services.dialect, t.app.services.registry);
});
after(() => t.close());

describe('migration 5: change snapshots as json documents', () => {
  it('should record the migration', async () => {
    const rows = await db().selectFrom('inventory_migrations').select('id').where('id', '=', 5).execute();
    assert.equal(rows.length, 1);
  });

  it('should keep the snapshots as json, compressed with lz4 where PostgreSQL offers it', async (ctx) => {
    if (!isPostgres()) return ctx.skip('PostgreSQL only');
    const method = (await hasLz4()) ? 'l' : 'p';
    assert.deepEqual(await columns(), [`json ${method}`, `json ${method}`]);
  });

  it('should read records written before it exactly as before', async () => {
    assert.equal(await tenantChanges(), written);
  });

  it('should give records written after it the same keys in the same order', async () => {
    await create(t, '/api/tenancy/tenants/', tenant('after'));
    const changes = JSON.parse(await tenantChanges()).results;
    const [after, before] = ['after', 'before'].map((name) => changes.find((c: any) => c.object_repr === name && c.action.value === 'create'));
    const shape = (v: unknown): unknown => (Array.isArray(v) ? v.map(shape) : v && typeof v === 'object' ? Object.entries(v).map(([k, x]) => [k, shape(x)]) : typeof v);
    assert.deepEqual(shape(after.object_data), shape(before.object_data));
    assert.deepEqual(shape(after.object_data_v2), shape(before.object_data_v2));
    assert.equal(after.object_data_v2.comments, `after ${'x'.repeat(5000)} → ü`);
    assert.deepEqual(after.object_data.custom_fields, { zeta: 'z', alpha: 1, b: 'bee', mid: 'm' });
  });
});
