import { sql } from 'kysely';
import { col } from '../../db/query/sql-helpers.js';
import { orderBy } from '../../db/query/sort.js';
import { FALSE, TRUE } from './context.js';
import type { RawBuilder, SelectQueryBuilder } from 'kysely';
import type { Clause } from '../../db/query/sql-helpers.js';
import type { OrderTerm } from '../../db/query/sort.js';
import type { ResolvedModel, Row } from '../../core/registry/types.js';
import type { GqlContext } from './context.js';

type Select = SelectQueryBuilder<any, any, any>;

/** The storage of a model's ids (UUIDs, or integers for content types and groups). */
function idStorage(model: ResolvedModel): 'uuid' | 'integer' {
  return model.id_type === 'integer' ? 'integer' : 'uuid';
}

/** `ref IN (...)` over any number of values in one parameter (Dialect.valueList). */
export function inList(ctx: GqlContext, ref: RawBuilder<unknown>, values: readonly unknown[], storage: 'uuid' | 'integer' | 'text'): RawBuilder<boolean> {
  return sql<boolean>`${ref} IN (${ctx.services.dialect.valueList(values, storage)})`;
}

function decode(ctx: GqlContext, model: ResolvedModel, raw: Record<string, unknown>[]): Row[] {
  return raw.map((r) => ctx.services.store.decode(model, r));
}

/**
 * Rows of `model` by id, in one statement whatever their number, narrowed by `clause` (TRUE: no
 * narrowing, as a related object shows in a REST response whether or not its list would); only
 * `columns` when given.
 */
export async function readByIds(ctx: GqlContext, model: ResolvedModel, ids: readonly string[], clause: Clause = TRUE, columns: readonly string[] | null = null): Promise<Map<string, Row>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0 || clause === FALSE) return new Map();
  const from = ctx.services.dialect.db.selectFrom(model.table);
  let query = (columns ? from.select(columns.map((c) => col(model.table, c).as(c))) : from.selectAll(model.table)).where(inList(ctx, col(model.table, 'id'), unique, idStorage(model)));
  if (clause !== TRUE) query = query.where(clause);
  const rows = decode(ctx, model, await query.execute());
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * How the rows of a to-many relation reach their parents: the column of the child (or of the
 * join table) holding the parent's id, and the join table when there is one.
 */
export type Link = {
  /** The parent id of each child row. */
  parent: RawBuilder<unknown>;
  /** `FROM child JOIN <table> ON <on>` for many-to-many links. */
  join?: { table: string; on: RawBuilder<boolean> };
};

/** Per-parent slice of a nested list (`limit`/`offset` on it); null for every child. */
export type Slice = { limit: number | null; offset: number } | null;

const PARENT = '__parent';
const POSITION = '__position';

/** `ORDER BY` terms as the text of a window's order. */
function windowOrder(terms: readonly OrderTerm[]): RawBuilder<unknown> {
  return sql.join(terms.map((t) => sql`${t.expr} ${sql.raw(t.desc ? 'DESC' : 'ASC')}`));
}

function childQuery(ctx: GqlContext, model: ResolvedModel, link: Link, parents: readonly string[], parentStorage: 'uuid' | 'integer', columns: readonly string[] | null): Select {
  let query: Select = ctx.services.dialect.db.selectFrom(model.table);
  if (link.join) query = query.innerJoin(link.join.table, (join) => join.on(link.join!.on));
  query = columns ? query.select(columns.map((c) => col(model.table, c).as(c))) : query.selectAll(model.table);
  return query.select(link.parent.as(PARENT)).where(inList(ctx, link.parent, parents, parentStorage));
}

/**
 * The children of many parents in one statement, each parent's in the model's order: the rows
 * `clause` lets through, at most `room` in all, and per parent the `slice` when one is given
 * (a window numbering each parent's rows); only `columns` when given (the rest of each row is
 * absent). Returns parent id -> rows.
 */
export async function readChildren(ctx: GqlContext, opts: { model: ResolvedModel; link: Link; parents: readonly string[]; parentStorage: 'uuid' | 'integer'; clause: Clause; terms: readonly OrderTerm[]; slice: Slice; room: number; columns?: readonly string[] | null }): Promise<Map<string, Row[]>> {
  const { model, clause, terms, slice } = opts;
  if (opts.parents.length === 0 || clause === FALSE) return new Map();
  let query = childQuery(ctx, model, opts.link, [...new Set(opts.parents)], opts.parentStorage, opts.columns ?? null);
  if (clause !== TRUE) query = query.where(clause);
  let raw: Record<string, unknown>[];
  if (slice) {
    const numbered = query.select(sql`row_number() OVER (PARTITION BY ${opts.link.parent} ORDER BY ${windowOrder(terms)})`.as(POSITION));
    let outer = ctx.services.dialect.db.selectFrom(numbered.as('numbered')).selectAll('numbered').where(POSITION, '>', slice.offset);
    if (slice.limit !== null) outer = outer.where(POSITION, '<=', slice.offset + slice.limit);
    raw = await outer.orderBy(POSITION).limit(opts.room).execute();
  } else {
    // Grouped by parent first: only each parent's order shows, and an index on (parent, order)
    // then spares the sort. Which rows a cut at `room` drops does not matter: the budget is spent.
    raw = await orderBy(query.orderBy(opts.link.parent), terms).limit(opts.room).execute();
  }
  const out = new Map<string, Row[]>();
  const rows = decode(ctx, model, raw);
  raw.forEach((r, i) => {
    const parent = String(r[PARENT]);
    const list = out.get(parent);
    if (list) list.push(rows[i]);
    else out.set(parent, [rows[i]]);
  });
  return out;
}
