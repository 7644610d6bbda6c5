import { sql } from 'kysely';
import type { RawBuilder } from 'kysely';
import { joinRows } from './bulk-rows.js';
import { indexName, modelIndexes } from './schema/build-schema.js';
import type { Exec, Store } from './store.js';
import type { ResolvedModel } from '../core/registry/types.js';

/** Columns compared to the tuples' values (`live`, in order) and columns that must be null. */
export type TupleColumns = { live: string[]; nulls: string[] };

/** One stored row matched by a tuple: the tuple's index in the list and the row as the driver gave it. */
export type TupleMatch = { index: number; raw: Record<string, unknown> };

const indexed = new Map<string, string | null | false>();

/**
 * The index of `model`'s table that begins with the columns `live` (in any order; the shortest
 * such): its name, null for the primary key, false when there is none.
 */
function leadingIndex(model: ResolvedModel, live: string[]): string | null | false {
  const key = `${model.table} ${live.join(',')}`;
  let found = indexed.get(key);
  if (found === undefined) {
    const wanted = new Set(live);
    const leads = (columns: string[]) => columns.length >= wanted.size && columns.slice(0, wanted.size).every((c) => wanted.has(c));
    const best = modelIndexes(model).filter((index) => leads(index.columns)).sort((a, b) => a.columns.length - b.columns.length)[0];
    found = leads(['id']) ? null : best ? indexName(model.table, best.columns, best.unique) : false;
    indexed.set(key, found);
  }
  return found;
}

/**
 * Stored rows of `model` equal to any of `tuples` (driver values, one per live column) and null
 * on `cols.nulls`, in one statement: a join with a VALUES list tagged by tuple index, so each
 * tuple is an exact equality probe (through an index on those columns when there is one, see
 * `leadingIndex`).
 * `select: 'id'` reads only ids. Callers keep a statement under the parameter limits. The tuples
 * travel as bulk-rows.ts sends rows (a VALUES list, or arrays), the text built once per shape.
 */
export async function matchTuples(exec: Exec, store: Store, model: ResolvedModel, cols: TupleColumns, tuples: unknown[][], select: 'id' | 'all'): Promise<TupleMatch[]> {
  const picked = select === 'id' ? sql`${sql.ref('t.id')}` : sql`t.*`;
  const nulls = cols.nulls.map((c) => sql`${sql.ref(`t.${c}`)} IS NULL`);
  if (cols.live.length === 0) {
    const where = nulls.length > 0 ? sql` WHERE ${sql.join(nulls, sql` AND `)}` : sql``;
    const rows = await sql<Record<string, unknown>>`SELECT ${picked} FROM ${sql.table(model.table)} AS t${where}`.execute(exec);
    return rows.rows.map((raw) => ({ index: 0, raw }));
  }
  const types = [store.dialect.columnType('integer'), ...cols.live.map((c) => store.sqlType(model, c))];
  // Each tuple's values: its index, then its values.
  const values = tuples.flatMap((tuple, i) => [i, ...tuple]);
  const on = cols.live.map((c, j) => sql`${sql.ref(`t.${c}`)} = v.${sql.raw(`column${j + 2}`)}`);
  const key = `match ${model.table} ${select} ${cols.live.join(',')} ${cols.nulls.join(',')}`;
  // Probed per tuple through the index that begins with the compared columns; without one, the
  // database joins as it sees fit (a probe would scan the table once per tuple).
  const index = leadingIndex(model, cols.live);
  const joined = (rows: RawBuilder<unknown>) => (index !== false
    ? sql`FROM ${rows} ${store.dialect.joinProbe(model.table, 't', sql.join([...on, ...nulls], sql` AND `), index ?? undefined)}`
    : sql`FROM ${sql.table(model.table)} AS t JOIN ${rows} ON ${sql.join(on, sql` AND `)}${nulls.length > 0 ? sql` WHERE ${sql.join(nulls, sql` AND `)}` : sql``}`);
  const query = joinRows(store, exec, key, types, { width: types.length, count: tuples.length, values }, (rows) =>
    sql`SELECT ${picked}, v.column1 AS ${sql.ref('match_index__')} ${joined(rows)}`);
  const rows = await exec.executeQuery<Record<string, unknown>>(query);
  return rows.rows.map((raw) => ({ index: Number(raw.match_index__), raw }));
}
