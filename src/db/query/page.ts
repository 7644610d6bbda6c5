import { CompiledQuery, sql } from 'kysely';
import { TRUE, col } from './sql-helpers.js';
import type { SelectQueryBuilder } from 'kysely';
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
 * `offset`; `idsOnly` reads just their ids. `shape` names the order (model and sort): the
 * statements of an unfiltered list are then compiled once per shape.
 */
export type PageQuery = { exec: Exec; model: ResolvedModel; where: Clause; terms: OrderTerm[]; limit: number | null; offset: number; idsOnly?: boolean; shape?: string };

/** SQL texts by database handle and statement key (unfiltered lists: their only parameters are limit and offset). */
const texts = new WeakMap<Exec, Map<string, string>>();

/** The statement key of one statement of an unfiltered list, or undefined when it must be compiled each time. */
function keyOf(q: PageQuery, part: string): string | undefined {
  return q.where === TRUE && q.shape ? `${q.shape}|${part}|${q.idsOnly ?? false}|${q.limit === null}|${q.offset > 0}` : undefined;
}

/** Runs `query`; under a `key` its SQL text is compiled once, and later runs bind `params`, which must be all its parameters. */
async function run(exec: Exec, query: { compile(): CompiledQuery }, key: string | undefined, params: unknown[]): Promise<Raw[]> {
  const shapes = texts.get(exec) ?? new Map<string, string>();
  texts.set(exec, shapes);
  let text = key === undefined ? undefined : shapes.get(key);
  if (text === undefined) {
    const compiled = query.compile();
    if (key === undefined || compiled.parameters.length !== params.length) return (await exec.executeQuery<Raw>(compiled)).rows;
    if (shapes.size >= 1000) shapes.clear();
    shapes.set(key, (text = compiled.sql));
  }
  return (await exec.executeQuery<Raw>(CompiledQuery.raw(text, params))).rows;
}

function columns(q: PageQuery, from: Select): Select {
  return q.idsOnly ? from.select(`${q.model.table}.id`) : from.selectAll(q.model.table);
}


/** LIMIT/OFFSET of a slice (all rows from `offset` when `limit` is null) and their parameters. */
function sliced(query: Select, limit: number | null, offset: number): [Select, unknown[]] {
  if (limit !== null) return [query.limit(limit).offset(offset), [limit, offset]];
  return offset > 0 ? [query.limit(-1 >>> 1).offset(offset), [-1 >>> 1, offset]] : [query, []];
}

function countOf(q: PageQuery): Select {
  return q.exec.selectFrom(q.model.table).select(sql<number>`count(*)`.as('n')).where(q.where);
}

/** The page and the total count, each in one statement (run concurrently). */
async function plainPage(q: PageQuery): Promise<Page> {
  const [select, params] = sliced(orderBy(columns(q, q.exec.selectFrom(q.model.table)).where(q.where), q.terms), q.limit, q.offset);
  const [counted, rows] = await Promise.all([run(q.exec, countOf(q), keyOf(q, 'count'), []), run(q.exec, select, keyOf(q, 'page'), params)]);
  return { count: Number(counted[0]?.n ?? 0), rows };
}

/** A slice of one group of rows, `size` of them in all. */
type Group = { size: number; read(limit: number | null, offset: number): Promise<Raw[]> };

/** The rows from `offset`, `limit` of them (null: all), of groups placed one after the other: only the groups the slice overlaps are read. */
async function sliceGroups(groups: Group[], limit: number | null, offset: number): Promise<Raw[]> {
  const rows: Raw[] = [];
  let [skip, want] = [offset, limit];
  for (const group of groups) {
    if (want === 0) break;
    if (skip >= group.size) {
      skip -= group.size;
      continue;
    }
    const part = await group.read(want, skip);
    rows.push(...part);
    if (want !== null) want = Math.max(0, want - part.length);
    skip = 0;
  }
  return rows;
}

/**
 * A whole list whose order starts with an FK (interfaces by device, tenants by group, ...).
 * Sorting every row by a correlated look-up of its target costs the whole table per page;
 * instead the rows with a target are read by walking the targets in their own order (an index)
 * and joining each one's rows, and the rows without one (whose key is NULL) form a group of
 * their own, last in ascending order and first in descending order, as the reference
 * (PostgreSQL) sorts NULL, whatever the database. One statement counts both groups.
 */
async function fkLedPage(q: PageQuery, lead: OrderVia): Promise<Page> {
  const { exec, model } = q;
  const fk = col(model.table, lead.field.column as string);
  // Both counts through indexes (`count(fk)` would read the column of every row).
  const counted = await run(exec, exec.selectNoFrom([countOf(q).as('n'), countOf(q).where(fk, 'is', null).as('z')]), keyOf(q, 'counts'), []);
  const [total, unlinked] = [Number(counted[0]?.n ?? 0), Number(counted[0]?.z ?? 0)];
  const leading = q.terms.findIndex((t) => t.via?.field !== lead.field);
  const byTarget = q.terms.slice(0, leading).map((t) => ({ expr: sql.ref(`t_lead.${(t.via as OrderVia).column}`), desc: t.desc }));
  const rest = q.terms.slice(leading);
  // CROSS JOIN keeps the targets the outer loop on SQLite, so their order index drives the walk.
  const joined = columns(q, exec.selectFrom(`${lead.target.table} as t_lead`).crossJoin(model.table)).where(sql<boolean>`${fk} = ${sql.ref('t_lead.id')}`).where(q.where);
  const alone = columns(q, exec.selectFrom(model.table)).where(q.where).where(fk, 'is', null);
  const groups: Group[] = [
    { size: total - unlinked, read: (limit, offset) => run(exec, ...slice(orderBy(joined, [...byTarget, ...rest]), limit, offset, keyOf(q, 'joined'))) },
    { size: unlinked, read: (limit, offset) => run(exec, ...slice(orderBy(alone, rest), limit, offset, keyOf(q, 'alone'))) },
  ];
  if (q.terms[0].desc) groups.reverse();
  return { count: total, rows: await sliceGroups(groups, q.limit, q.offset) };
}

function slice(query: Select, limit: number | null, offset: number, key: string | undefined): [Select, string | undefined, unknown[]] {
  const [select, params] = sliced(query, limit, offset);
  return [select, key === undefined ? undefined : `${key}|${limit === null}|${offset > 0}`, params];
}

/** One page of a list in the given order, and the number of rows matching `where`. */
export function readPage(q: PageQuery): Promise<Page> {
  // Only a whole list is walked through its targets: a filter usually picks few rows, which an
  // index on the filter finds faster than a walk over every target (36 ms for one device's interfaces).
  const lead = q.where === TRUE ? q.terms[0]?.via : undefined;
  return lead ? fkLedPage(q, lead) : plainPage(q);
}
