import { CompiledQuery, sql } from 'kysely';
import { TRUE, col } from './sql-helpers.js';
import { insideTransaction } from '../dialects/transaction-guard.js';
import type { RawBuilder, SelectQueryBuilder } from 'kysely';
import type { Exec } from '../store.js';
import type { Clause } from './sql-helpers.js';
import { orderBy } from './sort.js';
import type { OrderTerm, OrderVia } from './sort.js';
import type { ResolvedModel } from '../../core/registry/types.js';

type Raw = Record<string, unknown>;
type Select = SelectQueryBuilder<any, any, any>;
type Page = { count: number; rows: Raw[] };

/**
 * What to read: the model's rows matching `where`, in `terms` order, `limit` (null: all) from
 * `offset`; `idsOnly` reads just their ids, `columns` just those columns (named in `shape`). `shape` names the order (model and sort): the
 * statements of an unfiltered list are then compiled once per shape. `generation`: the
 * database's write generation as SQL (Dialect.generationSql); an unfiltered list's counts are
 * then computed again only when it moved (`countRow`). `read`: how the statements reading the
 * page's rows are run (Store.pageReader: the rows come back decoded); the driver's rows otherwise.
 */
export type PageQuery = {
  exec: Exec; model: ResolvedModel; where: Clause; terms: OrderTerm[]; limit: number | null; offset: number; idsOnly?: boolean; shape?: string; columns?: readonly string[]; generation?: RawBuilder<string>; read?: RowReader;
  /** A whole table's row count kept by the database (Dialect.rowCountSql), read instead of `count(*)` where given. */
  rowCount?: (table: string) => RawBuilder<number> | undefined;
  /** false: the caller needs no count (GraphQL lists), and a plain page reads none. */
  counted?: boolean;
};

/** Runs a statement reading rows of the page's model, as SQL text and parameters. */
export type RowReader = (text: string, params: readonly unknown[]) => Promise<Raw[]>;

/** SQL texts by database handle and statement key (unfiltered lists: their only parameters are limit and offset). */
const texts = new WeakMap<Exec, Map<string, string>>();

/** The statement key of one statement of an unfiltered list, or undefined when it must be compiled each time. */
function keyOf(q: PageQuery, part: string): string | undefined {
  return q.where === TRUE && q.shape ? `${q.shape}|${part}|${q.idsOnly ?? false}|${q.limit === null}|${q.offset > 0}` : undefined;
}

type Compilable = { compile(): CompiledQuery };

/**
 * Runs `query`; under a `key` its SQL text is compiled once, and later runs bind `params`, which
 * must be all its parameters. A query given as a function is only built when its text is not
 * known yet (an unfiltered list page builds no query objects once its shape was seen). `read`
 * runs the statement instead of `exec` when given.
 */
async function run(exec: Exec, query: Compilable | (() => Compilable), key: string | undefined, params: unknown[], read?: RowReader): Promise<Raw[]> {
  const shapes = texts.get(exec) ?? new Map<string, string>();
  texts.set(exec, shapes);
  let text = key === undefined ? undefined : shapes.get(key);
  if (text === undefined) {
    const compiled = (typeof query === 'function' ? query() : query).compile();
    if (key === undefined || compiled.parameters.length !== params.length) return read ? read(compiled.sql, compiled.parameters) : (await exec.executeQuery<Raw>(compiled)).rows;
    if (shapes.size >= 1000) shapes.clear();
    shapes.set(key, (text = compiled.sql));
  }
  return read ? read(text, params) : (await exec.executeQuery<Raw>(CompiledQuery.raw(text, params))).rows;
}

/** `run` for a statement reading the page's rows (through `q.read` when given). */
function runRows(q: PageQuery, query: Compilable | (() => Compilable), key: string | undefined, params: unknown[]): Promise<Raw[]> {
  return run(q.exec, query, key, params, q.read);
}

function columns(q: PageQuery, from: Select): Select {
  if (q.idsOnly) return from.select(`${q.model.table}.id`);
  return q.columns ? from.select(q.columns.map((c) => col(q.model.table, c).as(c))) : from.selectAll(q.model.table);
}


/** The parameters of a slice's LIMIT/OFFSET (none for all rows from the start). */
function sliceParams(limit: number | null, offset: number): unknown[] {
  if (limit !== null) return [limit, offset];
  return offset > 0 ? [-1 >>> 1, offset] : [];
}

/** LIMIT/OFFSET of a slice (all rows from `offset` when `limit` is null) and their parameters. */
function sliced(query: Select, limit: number | null, offset: number): [Select, unknown[]] {
  const params = sliceParams(limit, offset);
  return [params.length > 0 ? query.limit(params[0] as number).offset(offset) : query, params];
}

/**
 * `count(*)` of the rows matching the filter. A filter-free list gets no WHERE at all: SQLite
 * counts a bare `count(*)` from the b-tree's page headers (0.04 ms at 500 000 interfaces) but
 * reads every entry of an index for `WHERE 1 = 1` (5.2 ms), a cost that grew with the table.
 */
function countOf(q: PageQuery): Select {
  const count = q.exec.selectFrom(q.model.table).select(sql<number>`count(*)`.as('n'));
  return q.where === TRUE ? count : count.where(q.where);
}

/** The number of rows of a whole table: the count the database keeps where it keeps one (without reading the rows), else `count(*)`. */
function tableCount(q: PageQuery, table: string): Select {
  const kept = q.rowCount?.(table);
  return kept ? q.exec.selectNoFrom(kept.as('n')) : q.exec.selectFrom(table).select(sql<number>`count(*)`.as('n'));
}

/** The count of the rows matching the filter; a filter-free list's from the counts the database keeps, where it does. */
function matchCount(q: PageQuery): Select {
  return q.where === TRUE ? tableCount(q, q.model.table) : countOf(q);
}

/** The page's rows, sorted by the database. */
function sortedRows(q: PageQuery): Promise<Raw[]> {
  const select = () => slicedRows(q, () => q.exec.selectFrom(q.model.table).where(q.where), (outer) => outer, q.terms, q.limit, q.offset);
  return runRows(q, select, keyOf(q, `page|${isDeep(q.offset)}`), sliceParams(q.limit, q.offset));
}

/** Whether a slice from `offset` reads the ids it skips rather than whole rows (`slicedRows`). */
function isDeep(offset: number): boolean {
  return offset > 0 && offset >= pageTuning.deepOffset;
}

/** Name of the subquery of a deep slice's ids. */
const PAGE_IDS = 'netsot_page';

/**
 * A slice of `from`'s rows (its tables and filter, no columns) in `terms` order. From a deep
 * offset a subquery first reads just the slice's ids in order (an index walk, or a sort of ids
 * only, through the order's covering index), whose rows are then joined by id (with `joins`: the
 * other tables `terms` read) and sorted again, a slice's worth. OFFSET over whole rows put every
 * skipped row's columns through the sort when the order needs one: 200 000 interfaces (by
 * device) at offset 150 000, 495 ms a statement against 110 ms. Below the threshold the direct
 * statement costs the same or less (offset 200: 0.8 ms against 1.0-1.4).
 */
function slicedRows(q: PageQuery, from: () => Select, joins: (outer: Select) => Select, terms: OrderTerm[], limit: number | null, offset: number): Select {
  if (!isDeep(offset) || q.idsOnly) return sliced(orderBy(columns(q, from()), terms), limit, offset)[0];
  const ids = sliced(orderBy(from().select(col(q.model.table, 'id').as('id')), terms), limit, offset)[0];
  const rows = q.exec.selectFrom(ids.as(PAGE_IDS)).crossJoin(q.model.table).where(sql<boolean>`${col(q.model.table, 'id')} = ${sql.ref(`${PAGE_IDS}.id`)}`);
  return orderBy(columns(q, joins(rows)), terms);
}

/** The page and the total count, each in one statement (run concurrently). */
async function plainPage(q: PageQuery): Promise<Page> {
  if (q.counted === false) {
    const rows = await sortedRows(q);
    return { count: rows.length, rows };
  }
  const [counted, rows] = await Promise.all([countRow(q, { n: () => matchCount(q) }, 'count'), sortedRows(q)]);
  return { count: Number(counted.n ?? 0), rows };
}

/** Counts of unfiltered lists by statement key, and the generation they were read in. */
const lastCounts = new WeakMap<Exec, Map<string, { generation: unknown; row: Raw }>>();

/** A number per generation expression, for the key of the statement text built with it. */
const expressions = new WeakMap<RawBuilder<string>, number>();
let lastExpression = 0;
function expressionId(expression: RawBuilder<string>): number {
  const known = expressions.get(expression);
  if (known !== undefined) return known;
  expressions.set(expression, (lastExpression += 1));
  return lastExpression;
}

/** Column names of `countRow`'s statement (no table has them). */
const [GENERATION, SNAPSHOT] = ['netsot_generation', 'netsot_snapshot'];

/**
 * One row of counts (a column per count query). An unfiltered list on a database that offers
 * its generation as SQL reads, in one statement, the generation and the counts, each count as
 * `CASE WHEN generation = <the one last counted in> THEN NULL ELSE (count) END`: PostgreSQL
 * leaves the count's subquery unexecuted when the generation has not moved, and the counts last
 * read stand (exact: the same generation is the same snapshot, which sees the same rows). The
 * same one round trip; the count of a 100 000-row table (20-30 ms of server CPU) is skipped.
 */
async function countRow(q: PageQuery, counts: Record<string, () => Select>, part: string): Promise<Raw> {
  // Its text differs once the database keeps the table's count (a process that learns it after its first lists).
  const key = keyOf(q, q.rowCount?.(q.model.table) ? `${part}|kept` : part);
  const names = Object.keys(counts);
  if (!q.generation || key === undefined || insideTransaction()) {
    const query = () => (names.length === 1 ? counts[names[0]]() : q.exec.selectNoFrom(names.map((name) => counts[name]().as(name))));
    return (await run(q.exec, query, key, []))[0] ?? {};
  }
  const known = lastCounts.get(q.exec) ?? new Map<string, { generation: unknown; row: Raw }>();
  lastCounts.set(q.exec, known);
  const last = known.get(key);
  const g = sql.ref(`${SNAPSHOT}.${GENERATION}`);
  const query = () => q.exec.selectFrom(sql`(SELECT ${q.generation} AS ${sql.id(GENERATION)})`.as(SNAPSHOT))
    .select([g.as(GENERATION), ...names.map((name) => sql`CASE WHEN ${g} = ${''} THEN NULL ELSE (${counts[name]()}) END`.as(name))]);
  const [row] = await run(q.exec, query, `${key}|generation ${expressionId(q.generation)}`, names.map(() => last?.generation ?? ''));
  if (last && row[GENERATION] === last.generation) return last.row;
  if (known.size >= 1000) known.clear();
  known.set(key, { generation: row[GENERATION], row });
  return row;
}

/** A slice of one group of rows, `size` of them in all. */
type Group = { size: number; read(limit: number | null, offset: number): Promise<Raw[]> };

/** The rows from `offset`, `limit` of them (null: all), of groups placed one after the other: only the groups the slice overlaps are read. */
async function sliceGroups(groups: Group[], limit: number | null, offset: number): Promise<Raw[]> {
  let rows: Raw[] = [];
  let [skip, want] = [offset, limit];
  for (const group of groups) {
    if (want === 0) break;
    if (skip >= group.size) {
      skip -= group.size;
      continue;
    }
    const part = await group.read(want, skip);
    // concat, not push(...part): a whole list (an export's ids) passes V8's argument limit (500 000 interfaces: RangeError).
    rows = rows.length === 0 ? part : rows.concat(part);
    if (want !== null) want = Math.max(0, want - part.length);
    skip = 0;
  }
  return rows;
}

/** Rows matching the filter, those of them without a target, and the lead FK's targets. */
type LeadCounts = { total: number; unlinked: number; targets: number };

/** The counts a walk through the lead FK's targets needs, in one statement (every count through an index: `count(fk)` would read the column of every row). */
async function leadCounts(q: PageQuery, lead: OrderVia): Promise<LeadCounts> {
  const fk = col(q.model.table, lead.field.column as string);
  const counted = await countRow(q, { n: () => matchCount(q), z: () => countOf(q).where(fk, 'is', null), t: () => tableCount(q, lead.target.table) }, 'counts');
  return { total: Number(counted.n ?? 0), unlinked: Number(counted.z ?? 0), targets: Number(counted.t ?? 0) };
}

/**
 * How a filtered FK-led list is read: by the cost estimate below, or always one way; and the
 * offset from which a slice reads its ids first (`slicedRows`). Tests compare both ways.
 */
export const pageTuning: { walk: 'auto' | 'always' | 'never'; deepOffset: number } = { walk: 'auto', deepOffset: 1000 };

/**
 * Whether a filtered list is read faster by walking the targets in order than by sorting its
 * matches: a walk probes about (offset + limit) * targets / matches targets before the page is
 * full, a sort looks up the target of every match. A filter that keeps many rows (every
 * device's Ethernet1/1) walks; one that keeps few (one device's interfaces) sorts.
 */
function walkPays(q: PageQuery, counts: LeadCounts): boolean {
  if (pageTuning.walk !== 'auto') return pageTuning.walk === 'always';
  const linked = counts.total - counts.unlinked;
  if (q.limit === null || linked === 0) return false;
  return (q.offset + q.limit) * counts.targets < (linked * linked) / 4;
}

/** Targets few enough to read a target at a time (prefixes of a namespace); more are walked in one join (interfaces of devices). */
const FEW_TARGETS = 64;

/**
 * A whole list whose order starts with an FK (interfaces by device, prefixes by namespace, ...).
 * Sorting every row by a correlated look-up of its target costs the whole table per page;
 * instead the rows are read target by target in the targets' own order, and the rows without a
 * target (whose key is NULL) form a group of their own, last in ascending order and first in
 * descending order, as the reference (PostgreSQL) sorts NULL, whatever the database. One
 * statement counts the rows, those without a target and the targets.
 */
async function fkLedPage(q: PageQuery, lead: OrderVia, counts: LeadCounts): Promise<Page> {
  const { exec, model } = q;
  const fk = col(model.table, lead.field.column as string);
  const { total, unlinked } = counts;
  // Reading a target at a time counts each target's rows without the filter: only for a whole list.
  const few = q.where === TRUE && counts.targets <= FEW_TARGETS;
  const leading = q.terms.findIndex((t) => t.via?.field !== lead.field);
  const walk = { lead, byTarget: q.terms.slice(0, leading).map((t) => ({ expr: sql.ref(`t_lead.${(t.via as OrderVia).column}`), desc: t.desc })), rest: q.terms.slice(leading) };
  const alone = () => exec.selectFrom(model.table).where(q.where).where(fk, 'is', null);
  const readAlone = (limit: number | null, offset: number) => slicedRows(q, alone, (outer) => outer, walk.rest, limit, offset);
  const groups: Group[] = [
    ...(few ? await targetGroups(q, walk, total - unlinked) : [joinedGroup(q, walk, total - unlinked)]),
    { size: unlinked, read: (limit, offset) => runRows(q, () => readAlone(limit, offset), sliceKey(keyOf(q, 'alone'), limit, offset), sliceParams(limit, offset)) },
  ];
  if (q.terms[0].desc) groups.reverse();
  return { count: total, rows: await sliceGroups(groups, q.limit, q.offset) };
}

/** How rows are walked through their targets: the FK, the targets' order, then the rows' own. */
type Walk = { lead: OrderVia; byTarget: OrderTerm[]; rest: OrderTerm[] };

/**
 * Every row with a target, in one group read by joining the targets in their order to their
 * rows (CROSS JOIN keeps the targets the outer loop on SQLite, so their order index drives it).
 */
function joinedGroup(q: PageQuery, walk: Walk, size: number): Group {
  const fk = col(q.model.table, walk.lead.field.column as string);
  const onTarget = sql<boolean>`${fk} = ${sql.ref('t_lead.id')}`;
  const joined = () => q.exec.selectFrom(`${walk.lead.target.table} as t_lead`).crossJoin(q.model.table).where(onTarget).where(q.where);
  const withTargets = (outer: Select) => outer.crossJoin(`${walk.lead.target.table} as t_lead`).where(onTarget);
  const read = (limit: number | null, offset: number) => slicedRows(q, joined, withTargets, [...walk.byTarget, ...walk.rest], limit, offset);
  return { size, read: (limit, offset) => runRows(q, () => read(limit, offset), sliceKey(keyOf(q, 'joined'), limit, offset), sliceParams(limit, offset)) };
}

/**
 * Every row with a target, when the targets are few, in the targets' order (ties by id). A slice
 * inside one target's rows is read through the order index (FK, own columns, id) without a
 * sort; a slice across several is read in one statement limited to those targets. One
 * statement counts each target's rows (none for a lone target: it holds all `linked` rows).
 */
async function targetGroups(q: PageQuery, walk: Walk, linked: number): Promise<Group[]> {
  const { exec, model } = q;
  const fk = col(model.table, walk.lead.field.column as string);
  const ordered = orderBy(exec.selectFrom(`${walk.lead.target.table} as t_lead`).select('t_lead.id'), [...walk.byTarget, { expr: sql.ref('t_lead.id'), desc: walk.byTarget[0].desc }]);
  const ids = (await run(exec, ordered, keyOf(q, 'targets'), [])).map((r) => r.id);
  if (ids.length === 0) return [];
  const counts = exec.selectFrom(model.table).select([fk.as('target'), sql<number>`count(*)`.as('n')]).where(fk, 'in', ids).groupBy(fk);
  const sizes = ids.length === 1 ? new Map([[String(ids[0]), linked]])
    : new Map((await run(exec, counts, keyOf(q, `sizes ${ids.length}`), ids)).map((r) => [String(r.target), Number(r.n)]));
  const targets = ids.map((id) => ({ id, size: sizes.get(String(id)) ?? 0 }));
  return [{ size: linked, read: (limit, offset) => readTargets(q, walk, targets, limit, offset) }];
}

/** Rows `offset` .. `offset + limit` (limit null: all) of the targets' rows placed one after the other. */
async function readTargets(q: PageQuery, walk: Walk, targets: { id: unknown; size: number }[], limit: number | null, offset: number): Promise<Raw[]> {
  const fk = col(q.model.table, walk.lead.field.column as string);
  let [first, skip] = [0, offset];
  while (first < targets.length && skip >= targets[first].size) skip -= targets[first++].size;
  let [last, room] = [first, targets[first] ? targets[first].size - skip : 0];
  while (last + 1 < targets.length && (limit === null || room < limit)) room += targets[++last].size;
  const spanned = targets.slice(first, last + 1).map((t) => t.id);
  if (spanned.length === 0) return [];
  if (spanned.length === 1) {
    const [select, key, params] = slice(orderBy(columns(q, q.exec.selectFrom(q.model.table)).where(fk, '=', spanned[0]), walk.rest), limit, skip, keyOf(q, 'target'));
    return runRows(q, select, key, [spanned[0], ...params]);
  }
  const joined = columns(q, q.exec.selectFrom(`${walk.lead.target.table} as t_lead`).crossJoin(q.model.table)).where(sql<boolean>`${fk} = ${sql.ref('t_lead.id')}`).where(fk, 'in', spanned);
  const tie = { expr: sql.ref('t_lead.id'), desc: walk.byTarget[0].desc };
  const [select, key, params] = slice(orderBy(joined, [...walk.byTarget, tie, ...walk.rest]), limit, skip, keyOf(q, `targets ${spanned.length}`));
  return runRows(q, select, key, [...spanned, ...params]);
}

function slice(query: Select, limit: number | null, offset: number, key: string | undefined): [Select, string | undefined, unknown[]] {
  const [select, params] = sliced(query, limit, offset);
  return [select, sliceKey(key, limit, offset), params];
}

/** The statement key of a slice (its text differs with a limit, an offset and a deep offset). */
function sliceKey(key: string | undefined, limit: number | null, offset: number): string | undefined {
  return key === undefined ? undefined : `${key}|${limit === null}|${offset > 0}|${isDeep(offset)}`;
}

/** One page of a list in the given order, and the number of rows matching `where`. */
export async function readPage(q: PageQuery): Promise<Page> {
  const lead = q.terms[0]?.via;
  if (!lead) return plainPage(q);
  const counts = await leadCounts(q, lead);
  if (q.where === TRUE || walkPays(q, counts)) return fkLedPage(q, lead, counts);
  // A filter that picks few rows: an index on the filter finds them faster than a walk over
  // every target (36 ms for one device's interfaces); the count is already known.
  return { count: counts.total, rows: await sortedRows(q) };
}
