import { sql } from 'kysely';
import { addColumnSql, buildTableSpecs, createIndexSql, createTableSql } from './build-schema.js';
import { migrateContentTypeIds, migrateIntegerIds } from './integer-ids.js';
import { syncContentTypes } from '../content-types.js';
import { fillNaturalOrderKeys } from './natural-order-keys.js';
import { normalizeMacAddresses } from './mac-addresses.js';
import { createQueueTables } from './queue-tables.js';
import { createJobInputsTable } from './job-inputs.js';
import { ensureSessionTables } from './session-tables.js';
import { fillDefaultDescriptions } from './default-descriptions.js';
import { fillCircuitTerminationSides } from './circuit-termination-sides.js';
import { fillMirroredLinks } from './mirrored-links.js';
import type { Dialect } from '../dialects/dialect.js';
import type { Registry } from '../../core/registry/registry.js';

/**
 * A numbered migration. Schema follows the registry: migration 1 (and every start) creates
 * missing tables, columns and indexes, so a database made by an older version gains what the
 * newer registry declares without losing rows. Data changes get their own numbered entry here.
 */
export type Migration = { id: number; name: string; up: (dialect: Dialect, registry: Registry) => Promise<void> };

async function syncRegistrySchema(dialect: Dialect, registry: Registry): Promise<void> {
  const existing = await dialect.listTables();
  const statements: string[] = [];
  for (const spec of buildTableSpecs(registry)) {
    const columns = existing.get(spec.name);
    if (!columns) statements.push(createTableSql(dialect, spec));
    else for (const col of spec.columns) if (!columns.has(col.name)) statements.push(addColumnSql(dialect, spec.name, col));
    for (const index of spec.indexes) statements.push(createIndexSql(spec.name, index));
  }
  await dialect.execScript(statements);
}

/**
 * Change-record snapshots (4-5 kB of JSON per object, written once, read whole, never queried
 * inside) become `document` storage: PostgreSQL keeps them as json text instead of converting
 * them to jsonb (the dialect reads them back in jsonb's key order), compressed with lz4 instead of
 * pglz where the server offers it. Per 1000 records ~100 ms less to insert (measured alone). The
 * stored values are cast (a rewrite of the table, lossless); SQLite keeps its text columns.
 */
async function changeSnapshotsAsDocuments(dialect: Dialect, registry: Registry): Promise<void> {
  const changes = registry.get('extras.objectchange');
  const fields = ['object_data', 'object_data_v2'].map((name) => changes.fieldMap.get(name)!);
  await dialect.retypeColumns(changes.table, fields.map((f) => ({ name: f.column as string, storage: f.behaviour.storage })));
  await dialect.compressFast(changes.table, fields.map((f) => f.column as string));
}

export const MIGRATIONS: Migration[] = [
  { id: 1, name: 'registry schema', up: syncRegistrySchema },
  { id: 2, name: 'integer ids (auth.group)', up: migrateIntegerIds },
  { id: 3, name: 'natural-order keys (_name)', up: fillNaturalOrderKeys },
  { id: 4, name: 'canonical MAC addresses', up: normalizeMacAddresses },
  { id: 5, name: 'change snapshots as json documents, lz4 (extras.objectchange)', up: changeSnapshotsAsDocuments },
  { id: 6, name: 'integer ids (contenttypes.contenttype)', up: migrateContentTypeIds },
  { id: 7, name: 'reference descriptions of default statuses and roles', up: fillDefaultDescriptions },
  { id: 8, name: 'circuit terminations named on their circuits (circuits.circuit)', up: fillCircuitTerminationSides },
  { id: 20, name: 'event outbox, queue and workers', up: createQueueTables },
  { id: 60, name: 'to-many fields mirrored from assignments, and both ends of reverse pairs, filled', up: fillMirroredLinks },
  { id: 70, name: 'job run inputs apart from queue rows', up: createJobInputsTable },
];

/** Latest migration id this build knows. */
export const LATEST_MIGRATION = MIGRATIONS[MIGRATIONS.length - 1].id;

async function appliedIds(dialect: Dialect): Promise<Set<number>> {
  await sql.raw('CREATE TABLE IF NOT EXISTS "inventory_migrations" ("id" integer PRIMARY KEY, "name" text NOT NULL, "applied" text NOT NULL)').execute(dialect.db);
  const rows = await dialect.db.selectFrom('inventory_migrations').select('id').execute();
  return new Set(rows.map((r) => Number(r.id)));
}

/**
 * Applies pending migrations. A database past migration 1 first gains the tables, columns and
 * indexes the registry declares now (additive only), so later data migrations can fill them.
 * Then every model of the registry gets its content type row (on every start).
 */
export async function migrate(dialect: Dialect, registry: Registry): Promise<number[]> {
  const done = await appliedIds(dialect);
  const applied: number[] = [];
  if (done.has(1)) await syncRegistrySchema(dialect, registry);
  for (const migration of MIGRATIONS) {
    if (done.has(migration.id)) continue;
    await migration.up(dialect, registry);
    await dialect.db.insertInto('inventory_migrations').values({ id: migration.id, name: migration.name, applied: new Date().toISOString() }).execute();
    applied.push(migration.id);
  }
  await dialect.trackWrites?.(buildTableSpecs(registry).map((spec) => spec.name));
  await syncContentTypes(dialect, registry);
  await ensureSessionTables(dialect);
  return applied;
}

/** True when every known migration is recorded (used by /health/). */
export async function isMigrated(dialect: Dialect): Promise<boolean> {
  const rows = await dialect.db.selectFrom('inventory_migrations').select('id').execute();
  return rows.some((r) => Number(r.id) === LATEST_MIGRATION);
}
