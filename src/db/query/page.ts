import { CompiledQuery, sql } from 'kysely';
import { TRUE, col } from './sql-helpers.js';
import type { SelectQueryBuilder } from 'kysely';
import type { Exec } from '../store.js';
import type { Clause } from './sql-helpers.js';
import type { OrderTerm, OrderVia } from './sort.js';
import type { ResolvedModel } from '../../core/registry/types.js';

type Raw = Record<string, unknown>;
type Compilable = { compile(): CompiledQuery };

/**
 * What to read: the model's rows matching `where`, in `terms` order, `limit` (null: all) from
 * `offset`; `idsOnly` reads just their ids. `shape` names the order (model and sort) so an
 * unfiltered page's statements are compiled once per shape.
 */
export type PageQuery = { exec: Exec; model: ResolvedModel; where: Clause; terms: OrderTerm[]; limit: number | null; offset: number; idsOnly?: boolean; shape?: string };

type Texts = { count: string; page: string; paged: boolean };

/** SQL texts of unfiltered pages by database handle and shape (their parameters are the limit and offset alone). */
const unfiltered = new WeakMap<Exec, Map<string, Texts>>();

function selectFrom(q: PageQuery, from: SelectQueryBuilder<any, any, any>) {
  return q.idsOnly ? from.select(`${q.model.table}.id`) : from.selectAll(q.model.table);
}

function ordered<Q extends SelectQueryBuilder<any, any, any>>(query: Q, terms: OrderTerm[]): Q {
  let out = query;
  for (const term of terms) out = out.orderBy(term.expr, term.desc ? 'desc' : 'asc') as Q;
  return out;
}

function sliced<Q extends SelectQueryBuilder<any, any, any>>(query: Q, limit: number | null, offset: number): Q {
  if (limit !== null) return query.limit(limit).offset(offset) as Q;
  return (offset > 0 ? query.limit(-1 >>> 1).offset(offset) : query) as Q;
}

/** The page and the total count, each in one statement (run concurrently). */
async function plainPage(q: PageQuery): Promise<{ count: number; rows: Raw[] }> {
  const { exec, model, where } = q;
  const select = sliced(ordered(selectFrom(q, exec.selectFrom(model.table)).where(where), q.terms), q.limit, q.offset);
  const count = exec.selectFrom(model.table).select(sql<number>`count(*)`.as('n')).where(where);
  const texts = where === TRUE && q.shape ? unfilteredTexts(exec, `${q.shape}|${q.idsOnly}|${q.limit === null}|${q.offset > 0}`, count, select) : undefined;
  const [counted, rows] = await Promise.all([
    texts ? exec.executeQuery<Raw>(CompiledQuery.raw(texts.count, [])).then((r) => r.rows[0]) : count.executeTakeFirst(),
    texts ? exec.executeQuery<Raw>(CompiledQuery.raw(texts.page, texts.paged ? [q.limit ?? -1 >>> 1, q.offset] : [])).then((r) => r.rows) : select.execute(),
  ]);
  return { count: Number(counted?.n ?? 0), rows: rows as Raw[] };
}

/** The count and page texts of an unfiltered shape, compiled on first use (when their parameters are just limit and offset). */
function unfilteredTexts(exec: Exec, key: string, count: Compilable, select: Compilable): Texts | undefined {
  const shapes = unfiltered.get(exec) ?? new Map<string, Texts>();
  unfiltered.set(exec, shapes);
  let texts = shapes.get(key);
  if (!texts) {
    const [c, p] = [count.compile(), select.compile()];
    if (c.parameters.length > 0 || (p.parameters.length !== 0 && p.parameters.length !== 2)) return undefined;
    if (shapes.size >= 1000) shapes.clear();
    texts = { count: c.sql, page: p.sql, paged: p.parameters.length === 2 };
    shapes.set(key, texts);
  }
  return texts;
}

/**
 * A whole list whose order starts with an FK (interfaces by device, prefixes by namespace, ...). Sorting
 * every row by a correlated look-up of its target costs the whole table per page; instead the
 * rows with a target are read by walking the targets in their own order (an index) and joining
 * each one's rows, and the rows without one (whose key is NULL) form a group of their own, last
 * in ascending order and first in descending order, as the reference (PostgreSQL) sorts NULL,
 * whatever the database. One count gives both groups' sizes, so only the groups the page
 * overlaps are read.
 */
async function fkLedPage(q: PageQuery, lead: OrderVia): Promise<{ count: number; rows: Raw[] }> {
  const { exec, model, where } = q;
  const fk = col(model.table, lead.field.column as string);
  // Both counts through indexes (`count(fk)` would read the column of every row).
  const all = exec.selectFrom(model.table).select(sql<number>`count(*)`.as('n')).where(where);
  const counted = await exec.selectNoFrom([all.as('n'), all.where(fk, 'is', null).as('z')]).executeTakeFirst();
  const total = Number(counted?.n ?? 0);
  const linked = total - Number(counted?.z ?? 0);
  const leading = q.terms.findIndex((t) => t.via?.field !== lead.field);
  const [head, rest] = [q.terms.slice(0, leading), q.terms.slice(leading)];
  const joined = (limit: number | null, offset: number) => {
    // CROSS JOIN keeps the targets the outer loop on SQLite, so their order index drives the walk.
    const from = selectFrom(q, exec.selectFrom(`${lead.target.table} as t_lead`).crossJoin(model.table))
      .where(sql<boolean>`${fk} = ${sql.ref('t_lead.id')}`).where(where);
    const byTarget = head.map((t) => ({ expr: sql.ref(`t_lead.${(t.via as OrderVia).column}`), desc: t.desc }));
    return sliced(ordered(from, [...byTarget, ...rest]), limit, offset).execute();
  };
  const unlinked = (limit: number | null, offset: number) => sliced(ordered(selectFrom(q, exec.selectFrom(model.table)).where(where).where(fk, 'is', null), rest), limit, offset).execute();
  const groups: [typeof joined, number][] = [[joined, linked], [unlinked, total - linked]];
  if (q.terms[0].desc) groups.reverse();
  const rows: Raw[] = [];
  let skip = q.offset;
  let want = q.limit;
  for (const [read, size] of groups) {
    if (want === 0) break;
    if (skip >= size) {
      skip -= size;
      continue;
    }
    const part = (await read(want, skip)) as Raw[];
    rows.push(...part);
    if (want !== null) want = Math.max(0, want - part.length);
    skip = 0;
  }
  return { count: total, rows };
}

/** One page of a list in the given order, and the number of rows matching `where`. */
export function readPage(q: PageQuery): Promise<{ count: number; rows: Raw[] }> {
  // Only a whole list is walked through its targets: a filter usually picks few rows, which an
  // index on the filter finds faster than a walk over every target (36 ms for one device's interfaces).
  const lead = q.where === TRUE ? q.terms[0]?.via : undefined;
  return lead ? fkLedPage(q, lead) : plainPage(q);
}
