import { sql } from 'kysely';
import { buildTableSpecs, createIndexSql, createTableSql, joinTable } from './build-schema.js';
import { SEQUENCE_TABLE } from './id-sequences.js';
import type { Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.js';
import type { Registry } from '../../core/registry/registry.js';
import type { ResolvedModel } from '../../core/registry/types.js';

type Raw = Record<string, unknown>;

/** A join table holding ids of the model: its column that does (`source_id` or `target_id`). */
type IdColumn = { table: string; column: 'source_id' | 'target_id' };

/** Join tables whose source or target is `model` (its own to-many fields, others' m2m to it). */
function idColumns(registry: Registry, model: ResolvedModel): IdColumn[] {
  const own = model.fields.filter((f) => f.behaviour.relation === 'm2m' || f.behaviour.relation === 'content_types')
    .map((f) => ({ table: joinTable(model, f), column: 'source_id' as const }));
  const others = registry.referencesTo(model.id).filter((r) => r.field.kind === 'm2m')
    .map((r) => ({ table: joinTable(r.model, r.field), column: 'target_id' as const }));
  return [...own, ...others];
}

/** Old id -> integer id: digits stay, other ids (UUIDs of older builds) count on from the largest. */
function numberIds(rows: Raw[]): Map<string, number> {
  const out = new Map<string, number>();
  let next = Math.max(0, ...rows.map((r) => String(r.id)).filter((id) => /^\d+$/.test(id)).map(Number)) + 1;
  for (const row of rows) out.set(String(row.id), /^\d+$/.test(String(row.id)) ? Number(row.id) : next++);
  return out;
}

async function recreate(trx: Kysely<any>, dialect: Dialect, registry: Registry, tables: string[]): Promise<void> {
  const specs = buildTableSpecs(registry).filter((s) => tables.includes(s.name));
  for (const spec of specs) {
    await sql.raw(`DROP TABLE IF EXISTS "${spec.name}"`).execute(trx);
    await sql.raw(createTableSql(dialect, spec)).execute(trx);
    for (const index of spec.indexes) await sql.raw(createIndexSql(spec.name, index)).execute(trx);
  }
}

async function insertAll(trx: Kysely<any>, table: string, rows: Raw[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 200) await trx.insertInto(table).values(rows.slice(i, i + 200)).execute();
}

/** Rebuilds one integer-id model's table and join tables, renumbering its rows. */
async function renumber(trx: Kysely<any>, dialect: Dialect, registry: Registry, model: ResolvedModel, existing: Set<string>): Promise<void> {
  const links = idColumns(registry, model).filter((l) => existing.has(l.table));
  const order = model.ordering.map((o) => model.fieldMap.get(o.replace(/^-/, ''))?.column).filter((c): c is string => !!c);
  const rows = await order.reduce((q, c) => q.orderBy(c), trx.selectFrom(model.table).selectAll()).execute();
  const saved = await Promise.all(links.map(async (l) => ({ ...l, rows: await trx.selectFrom(l.table).selectAll().execute() })));
  const ids = numberIds(rows);
  await recreate(trx, dialect, registry, [model.table, ...links.map((l) => l.table)]);
  await insertAll(trx, model.table, rows.map((r) => ({ ...r, id: ids.get(String(r.id)) })));
  for (const l of saved) {
    await insertAll(trx, l.table, l.rows.filter((r) => ids.has(String(r[l.column]))).map((r) => ({ ...r, [l.column]: ids.get(String(r[l.column])) })));
  }
  const last = Math.max(0, ...ids.values());
  await trx.deleteFrom(SEQUENCE_TABLE.name).where('name', '=', model.table).execute();
  if (last > 0) await trx.insertInto(SEQUENCE_TABLE.name).values({ name: model.table, value: last }).execute();
}

/**
 * Migration: models declared with `id_type: 'integer'` (auth.group) had UUID keys in older
 * builds. Their tables and the join tables naming them are rebuilt with integer columns, rows
 * renumbered in stored order and links kept. On a new database the tables are empty.
 */
export async function migrateIntegerIds(dialect: Dialect, registry: Registry): Promise<void> {
  await renumberModels(dialect, registry, registry.models.filter((m) => m.id_type === 'integer'));
}

/**
 * Migration 6: content types became integer-id rows (they were UUID-keyed, and never had rows,
 * in older builds); its table is rebuilt with an integer key the same way.
 */
export async function migrateContentTypeIds(dialect: Dialect, registry: Registry): Promise<void> {
  await renumberModels(dialect, registry, registry.models.filter((m) => m.id === 'contenttypes.contenttype' && m.id_type === 'integer'));
}

async function renumberModels(dialect: Dialect, registry: Registry, models: ResolvedModel[]): Promise<void> {
  if (models.length === 0) return;
  const existing = new Set((await dialect.listTables()).keys());
  await dialect.db.transaction().execute(async (trx) => {
    await sql.raw(createTableSql(dialect, SEQUENCE_TABLE)).execute(trx);
    for (const model of models.filter((m) => existing.has(m.table))) await renumber(trx, dialect, registry, model, existing);
  });
}
