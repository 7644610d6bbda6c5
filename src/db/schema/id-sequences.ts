import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { ResolvedModel } from '../../core/registry/types.js';
import type { TableSpec } from './build-schema.js';

/**
 * Last id given per integer-id table. One portable counter row per table instead of dialect
 * sequences: the upsert takes the row's lock in PostgreSQL, so concurrent processes never give
 * the same id, and ids of deleted rows are not given again (as a database sequence).
 */
export const SEQUENCE_TABLE: TableSpec = {
  name: 'inventory_id_sequences',
  columns: [{ name: 'name', storage: 'text', primary: true }, { name: 'value', storage: 'integer', notNull: true }],
  indexes: [],
};

/**
 * The next `count` integer ids of `model`'s table, in order (the first ever is one past the
 * largest stored id): one upsert moves the counter past all of them.
 */
export async function reserveRowIds(exec: Kysely<any>, model: ResolvedModel, count: number): Promise<string[]> {
  if (count <= 0) return [];
  const table = SEQUENCE_TABLE.name;
  const first = sql<number>`(SELECT COALESCE(MAX(${sql.ref('id')}), 0) + ${sql.lit(count)} FROM ${sql.table(model.table)})`;
  const row = await exec.insertInto(table).values({ name: model.table, value: first })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value: sql`${sql.ref(`${table}.value`)} + ${sql.lit(count)}` }))
    .returning('value')
    .executeTakeFirstOrThrow();
  const last = Number(row.value);
  return Array.from({ length: count }, (_, i) => String(last - count + 1 + i));
}

/** A new primary key for a row of `model` inside the caller's transaction. */
export async function newRowId(exec: Kysely<any>, model: ResolvedModel): Promise<string> {
  return freeRowId(model) ?? (await reserveRowIds(exec, model, 1))[0];
}

/** A new primary key that needs no statement (a UUID), or undefined for a model whose ids are reserved (`newRowId`). */
export function freeRowId(model: ResolvedModel): string | undefined {
  return model.id_type === 'integer' ? undefined : randomUUID();
}
