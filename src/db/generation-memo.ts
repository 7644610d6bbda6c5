import { sql } from 'kysely';
import type { CompiledQuery, SelectQueryBuilder } from 'kysely';
import type { Dialect } from './dialects/dialect.js';

/** Entries of one write generation; a new generation starts an empty table. */
type Memo = { generation: string; values: Map<string, Promise<unknown>> };
/** Per dialect, one table per kind of entry, so one kind filling its table never empties another's. */
const memos = new WeakMap<Dialect, Map<string, Memo>>();

/** A table of entries of one kind and the keys it keeps per generation (beyond them it starts over). */
export type MemoTable = { name: string; maxKeys: number };
/** Token look-ups (keyed by client input), custom field definitions, GraphQL's dynamic definitions. */
const ROWS: MemoTable = { name: 'rows', maxKeys: 1000 };

/**
 * `load()` once per write generation of the database (rows every request reads: custom field
 * definitions, token look-ups). `generation` is one the caller already read (a request's);
 * without it the generation is read here where that costs no statement, and elsewhere every
 * call loads afresh. A failed load is not kept. `table`: entries of one kind (tree chains are many
 * and keyed by ids; filling their table starts only theirs over, not the token look-ups').
 */
export async function memoByGeneration<T>(dialect: Dialect, key: string, load: () => Promise<T>, generation?: Promise<string | null>, table: MemoTable = ROWS): Promise<T> {
  if (!generation && !dialect.freeGeneration) return load();
  const current = await (generation ?? dialect.writeGeneration());
  if (current === null) return load();
  let tables = memos.get(dialect);
  if (!tables) memos.set(dialect, (tables = new Map()));
  let memo = tables.get(table.name);
  if (!memo || memo.generation !== current || memo.values.size >= table.maxKeys) tables.set(table.name, (memo = { generation: current, values: new Map() }));
  const hit = memo.values.get(key);
  if (hit) return hit as Promise<T>;
  const value = load();
  const values = memo.values;
  values.set(key, value);
  value.catch(() => values.delete(key));
  return value;
}

/** Column names of `firstRowWithGeneration`'s statement (no table has them). */
const [GENERATION, FOUND] = ['netsot_generation', 'netsot_found'];

/**
 * The first row of `query` (or undefined) and the write generation, read by one statement where
 * the dialect offers the generation as an SQL expression (PostgreSQL: one round trip instead of
 * two, both seen by the same snapshot); elsewhere the generation is read apart (free there).
 */
export async function firstRowWithGeneration<R extends Record<string, unknown>>(dialect: Dialect, query: SelectQueryBuilder<any, any, R>): Promise<{ row: R | undefined; generation: string | null }> {
  if (!dialect.generationSql) {
    const [generation, rows] = await Promise.all([dialect.writeGeneration(), query.execute()]);
    return { row: rows[0], generation };
  }
  const compiled = withGeneration(dialect, query);
  const rows = await dialect.readRows(dialect.db, compiled.sql, compiled.parameters);
  const { [GENERATION]: generation, [FOUND]: found, ...row } = rows[0];
  return { row: found === null ? undefined : (row as R), generation: generation as string };
}

/** `firstRowWithGeneration`'s statement per query builder (immutable; callers keep theirs, as the token look-up does per key). */
const combined = new WeakMap<object, CompiledQuery<Record<string, unknown>>>();

/**
 * The statement reading `query`'s first row beside the generation, compiled once per builder:
 * compiling the wrapped query anew was most of the cost of a PostgreSQL request's token read.
 */
function withGeneration(dialect: Dialect, query: SelectQueryBuilder<any, any, any>): CompiledQuery<Record<string, unknown>> {
  let compiled = combined.get(query);
  if (!compiled) {
    // The row's columns beside the generation: a query without rows leaves one row of nulls, told apart by `found`.
    compiled = sql<Record<string, unknown>>`SELECT ${dialect.generationSql} AS ${sql.id(GENERATION)}, q.* FROM (SELECT 1) AS one LEFT JOIN (SELECT 1 AS ${sql.id(FOUND)}, r.* FROM (${query}) AS r LIMIT 1) AS q ON true`.compile(dialect.db);
    combined.set(query, compiled);
  }
  return compiled;
}
