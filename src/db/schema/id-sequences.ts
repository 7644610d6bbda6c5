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

/** Next integer id of `model`'s table (the first is one past the largest stored id). */
async function nextSequenceId(exec: Kysely<any>, model: ResolvedModel): Promise<string> {
  const table = SEQUENCE_TABLE.name;
  const first = sql<number>`(SELECT COALESCE(MAX(${sql.ref('id')}), 0) + 1 FROM ${sql.table(model.table)})`;
  const row = await exec.insertInto(table).values({ name: model.table, value: first })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value: sql`${sql.ref(`${table}.value`)} + 1` }))
    .returning('value')
    .executeTakeFirstOrThrow();
  return String(row.value);
}

/** A new primary key for a row of `model` inside the caller's transaction. */
export async function newRowId(exec: Kysely<any>, model: ResolvedModel): Promise<string> {
  return model.id_type === 'integer' ? nextSequenceId(exec, model) : randomUUID();
}
