import { sql } from 'kysely';
import { nextTurn } from '../core/next-turn.js';
import { buildOrder } from '../db/query/sort.js';
import { readPage } from '../db/query/page.js';
import { and, or } from '../db/query/sql-helpers.js';
import { scopeClause } from './read.js';
import type { RawBuilder } from 'kysely';
import type { Clause } from '../db/query/sql-helpers.js';
import type { OrderTerm } from '../db/query/sort.js';
import type { ResolvedField, ResolvedModel, Row } from '../core/registry/types.js';
import type { Params } from './filters/apply.js';
import type { RequestContext, Services } from './services.js';

/**
 * What to export: the list's filters and sort; `batchSize` rows are read and handed on at a time
 * (1000 when absent); `keysetRows`, when larger, is how many ids a keyset query reads (see
 * openRowBatches); `columns` limits the columns read (all when absent; `id` is always read).
 */
export type ExportQuery = { params: Params; sort?: string; batchSize?: number; keysetRows?: number; columns?: readonly string[] };

/** `expr` comes strictly after `value` in this term's order. */
function after(term: OrderTerm, value: unknown, nullsFirst: boolean): Clause {
  const nullsLead = nullsFirst !== term.desc;
  const op = term.desc ? '<' : '>';
  if (value === null || value === undefined) return nullsLead ? (eb) => eb(term.expr, 'is not', null) : () => sql<boolean>`1 = 0`;
  if (nullsLead) return (eb) => eb(term.expr, op, value);
  return (eb) => eb.or([eb(term.expr, op, value), eb(term.expr, 'is', null)]);
}

function same(expr: RawBuilder<unknown>, value: unknown): Clause {
  return value === null || value === undefined ? (eb) => eb(expr, 'is', null) : (eb) => eb(expr, '=', value);
}

/** Rows after `last` in the full (terms..., id) order: the keyset predicate. */
function keysetAfter(terms: OrderTerm[], last: unknown[], nullsFirst: boolean): Clause {
  return or(terms.map((term, i) => and([...terms.slice(0, i).map((t, j) => same(t.expr, last[j])), after(term, last[i], nullsFirst)])));
}

/**
 * The whole filtered, sorted result of a list as batches of rows, so memory and the cost of
 * each query stay constant however many rows there are. An order of the table's own columns
 * reads with keyset pagination: each query an index range, or where no index serves the order a
 * sort of the table. With `keysetRows` above the batch size, a keyset query reads that many ids
 * (fewer sorts) and their rows are read by id a batch at a time (only ids are held). An order
 * through related tables is sorted once into a list of ids, then read by id in batches.
 * Filter and permission errors are thrown here, before the first batch is read. Each batch after
 * the first is read on a later turn of the event loop (an export of 102 000 interfaces held every
 * other request of a SQLite service for its 13 s).
 */
export async function openRowBatches(services: Services, rc: RequestContext, model: ResolvedModel, query: ExportQuery): Promise<AsyncIterable<Row[]>> {
  const where = await scopeClause(services, rc, model, query.params, 'view', services.dialect.db);
  const terms = buildOrder(services.registry, model, query.sort);
  const size = query.batchSize ?? 1000;
  const columns = query.columns ? [...new Set(['id', ...query.columns])].map((c) => `${model.table}.${c}`) : undefined;
  const batch = { services, model, where, terms, size, columns };
  if (terms.some((t) => t.related)) return rowsById(batch, sortedIds(batch));
  const keyset = { ...batch, nullsFirst: services.dialect.sortsNullsFirst };
  if ((query.keysetRows ?? size) <= size) return keysetBatches(keyset);
  return rowsById(batch, keysetIds({ ...keyset, size: query.keysetRows as number }));
}

type Batching = { services: Services; model: ResolvedModel; where: Clause; terms: OrderTerm[]; size: number; columns?: string[] };

function selectRows({ services, model, columns }: Batching) {
  const db = services.dialect.db;
  return columns ? db.selectFrom(model.table).select(columns) : db.selectFrom(model.table).selectAll(model.table);
}

/** Raw rows (`select`'s columns and the sort keys) in keyset order, `b.size` per query. */
async function* keysetPages(b: Batching & { nullsFirst: boolean }, select: () => ReturnType<typeof selectRows>): AsyncIterable<Record<string, unknown>[]> {
  let last: unknown[] | undefined;
  for (;;) {
    let query = select().select(b.terms.map((t, i) => t.expr.as(`__k${i}`))).where(b.where);
    if (last) {
      await nextTurn();
      query = query.where(keysetAfter(b.terms, last, b.nullsFirst));
    }
    for (const term of b.terms) query = query.orderBy(term.expr, term.desc ? 'desc' : 'asc');
    const raw = (await query.limit(b.size).execute()) as Record<string, unknown>[];
    if (raw.length === 0) return;
    const tail = raw[raw.length - 1];
    last = b.terms.map((_, i) => tail[`__k${i}`]);
    yield raw;
    if (raw.length < b.size) return;
  }
}

async function* keysetBatches(b: Batching & { nullsFirst: boolean }): AsyncIterable<Row[]> {
  for await (const raw of keysetPages(b, () => selectRows(b))) yield raw.map((r) => b.services.store.decode(b.model, r));
}

async function* keysetIds(b: Batching & { nullsFirst: boolean }): AsyncIterable<unknown[]> {
  for await (const raw of keysetPages(b, () => b.services.dialect.db.selectFrom(b.model.table).select(`${b.model.table}.id`))) yield raw.map((r) => r.id);
}

/** Ids in list order, read once as a list page would order them. */
async function* sortedIds(b: Batching): AsyncIterable<unknown[]> {
  const page = await readPage({ exec: b.services.dialect.db, model: b.model, where: b.where, terms: b.terms, limit: null, offset: 0, idsOnly: true, counted: false, rowCount: b.services.dialect.rowCountSql });
  yield page.rows.map((r) => r.id);
}

/** The rows of lists of ids, in their order, `b.size` per query; rows deleted meanwhile are skipped. */
async function* rowsById(b: Batching, idLists: AsyncIterable<unknown[]>): AsyncIterable<Row[]> {
  for await (const ids of idLists) {
    for (let start = 0; start < ids.length; start += b.size) {
      const slice = ids.slice(start, start + b.size);
      await nextTurn();
      const raw = await selectRows(b).where(`${b.model.table}.id`, 'in', slice).execute();
      const byId = new Map(raw.map((r) => [(r as { id: unknown }).id, r]));
      yield slice.flatMap((id) => (byId.has(id) ? [b.services.store.decode(b.model, byId.get(id) as Row)] : []));
    }
  }
}

/**
 * Depth of the deepest node of a self-referencing tree (roots are depth 0; 0 when empty),
 * as the reference's `max_tree_depth()`; one recursive query.
 */
export async function maxTreeDepth(services: Services, model: ResolvedModel, parent: ResolvedField): Promise<number> {
  const table = sql.table(model.table);
  const column = sql.ref(`node.${parent.column as string}`);
  const result = await sql<{ depth: number | null }>`
    WITH RECURSIVE walk(id, depth) AS (
      SELECT node.id, 0 FROM ${table} AS node WHERE ${column} IS NULL
      UNION ALL
      SELECT node.id, walk.depth + 1 FROM ${table} AS node JOIN walk ON ${column} = walk.id WHERE walk.depth < 1000
    )
    SELECT max(depth) AS depth FROM walk`.execute(services.dialect.db);
  return Number(result.rows[0]?.depth ?? 0);
}
