import { CompiledQuery, sql } from 'kysely';
import type { RawBuilder } from 'kysely';
import type { Exec, Store } from './store.js';

/**
 * Many rows' values for one statement: row after row, `width` values each, already encoded for
 * the driver. They travel as a VALUES list (one parameter per value), or, where the dialect takes
 * array parameters and the rows are narrow, as one array per column: PostgreSQL then parses and
 * plans a short statement instead of one with tens of thousands of placeholders (1000 rooms of
 * 21 columns: ~30 instead of ~45 ms).
 */
export type RowValues = { width: number; count: number; values: unknown[]; arrays?: false };

/**
 * Average text per row above which rows go as separate parameters even where arrays are taken:
 * an array is escaped and parsed as a whole, which costs more than it saves on wide texts (change
 * records, ~5 kB each: 1000 as VALUES ~110 ms, as arrays ~200 ms).
 */
const WIDE_ROW_CHARS = 2000;

/**
 * Weight of a text holding quotes (a JSON document): an array literal escapes each quote and
 * backslash of its elements, and the server unescapes them. 1000 change records of ~1.7 kB of
 * JSON each: ~85 ms of the service's CPU as VALUES, ~160 ms as arrays (PostgreSQL).
 */
const QUOTED_WEIGHT = 4;

function asArrays(store: Store, rows: RowValues): boolean {
  if (!store.dialect.unnestRows || rows.count < 2 || rows.arrays === false) return false;
  let chars = 0;
  for (const value of rows.values) if (typeof value === 'string') chars += value.includes('"') ? QUOTED_WEIGHT * value.length : value.length;
  return chars <= WIDE_ROW_CHARS * rows.count;
}

/** One array per column of row-major values. */
function byColumn(rows: RowValues): unknown[][] {
  const out = Array.from({ length: rows.width }, () => new Array<unknown>(rows.count));
  for (let r = 0; r < rows.count; r += 1) {
    for (let c = 0; c < rows.width; c += 1) out[c][r] = rows.values[r * rows.width + c];
  }
  return out;
}

/** `(VALUES (CAST(? AS type), ...), ...) AS v` or `unnest(...) AS v(column1, ...)`: columns `column1`... */
function source(store: Store, types: string[], count: number, arrays: boolean): RawBuilder<unknown> {
  if (arrays) return sql`${store.dialect.unnestRows!(types)} AS v(${sql.raw(types.map((_, i) => `column${i + 1}`).join(', '))})`;
  const tuple = sql`(${sql.join(types.map((type) => sql`CAST(${null} AS ${sql.raw(type)})`))})`;
  return sql`(VALUES ${sql.join(Array.from({ length: count }, () => tuple))}) AS v`;
}

/** A statement over `rows` whose text depends only on `key`, the shape and the transport. */
function compiled(store: Store, exec: Exec, key: string, rows: RowValues, build: (arrays: boolean) => RawBuilder<unknown>): CompiledQuery {
  const arrays = asArrays(store, rows);
  const text = store.statementText(`${key} ${arrays ? 'arrays' : rows.count}`, () => build(arrays).compile(exec));
  return CompiledQuery.raw(text, arrays ? byColumn(rows) : rows.values);
}

/** `INSERT INTO table (cols) VALUES ...` (or `SELECT * FROM unnest(...)`; never without the columns' SQL `types`). */
export function insertRows(store: Store, exec: Exec, table: string, cols: string[], types: string[] | null, rows: RowValues): CompiledQuery {
  return compiled(store, exec, `insert ${table} ${cols.join(',')}`, types ? rows : { ...rows, arrays: false }, (arrays) => {
    if (arrays && types) return sql`INSERT INTO ${sql.table(table)} (${sql.join(cols.map((c) => sql.ref(c)))}) SELECT * FROM ${store.dialect.unnestRows!(types)}`;
    const blank = Object.fromEntries(cols.map((c) => [c, null]));
    const query = exec.insertInto(table).values(Array.from({ length: rows.count }, () => blank)).compile();
    return sql.raw(query.sql);
  });
}

/** `UPDATE table SET c = v.columnN FROM <rows> AS v WHERE table.id = v.column1`: each row is its id, then `cols`' values. */
export function updateRows(store: Store, exec: Exec, table: string, cols: string[], types: string[], rows: RowValues): CompiledQuery {
  return compiled(store, exec, `update ${table} ${cols.join(',')}`, rows, (arrays) => {
    const sets = cols.map((c, i) => sql`${sql.ref(c)} = v.${sql.raw(`column${i + 2}`)}`);
    return sql`UPDATE ${sql.table(table)} SET ${sql.join(sets)} FROM ${source(store, types, rows.count, arrays)} WHERE ${sql.ref(`${table}.id`)} = ${store.dialect.probeKey(sql.raw('v.column1'))}`;
  });
}

/** A statement joining `rows` as `v` (columns `column1`...): `build` places the source. */
export function joinRows(store: Store, exec: Exec, key: string, types: string[], rows: RowValues, build: (rowsSource: RawBuilder<unknown>) => RawBuilder<unknown>): CompiledQuery {
  return compiled(store, exec, key, rows, (arrays) => build(source(store, types, rows.count, arrays)));
}
