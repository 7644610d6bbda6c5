import { sql } from 'kysely';
import { orderingField } from '../../core/registry/resolve.js';
import { col } from './sql-helpers.js';
import type { OrderByItemBuilder, RawBuilder, SelectQueryBuilder } from 'kysely';
import type { Registry } from '../../core/registry/registry.js';
import type { ResolvedField, ResolvedModel } from '../../core/registry/types.js';

/** A column of an FK's target that a term sorts by, when it is one step away (the target's own column). */
export type OrderVia = { field: ResolvedField; target: ResolvedModel; column: string };

/**
 * One ORDER BY term; `related` when it reads another table (a correlated look-up), and `via`
 * when that table is the target of one of the model's own FKs and the term one of its columns
 * (db/query/page.ts then walks that target in order instead of sorting every row).
 */
export type OrderTerm = { expr: RawBuilder<unknown>; desc: boolean; related?: boolean; via?: OrderVia };

/** FKs from the model to the table holding the column a term sorts by. */
type Step = { field: ResolvedField; target: ResolvedModel };

/** Django stops an ordering that loops back on itself; so does this, after as many steps. */
const MAX_STEPS = 4;

/** The value of `column` at the end of `steps`, from `from` (the first FK's column): nested look-ups by id. */
function lookUp(steps: Step[], column: string, from: RawBuilder<unknown>, depth = 0): RawBuilder<unknown> {
  const [step, ...rest] = steps;
  const alias = `t${depth}_${step.field.name}`;
  const value = rest.length === 0 ? sql.ref(`${alias}.${column}`) : lookUp(rest, column, sql.ref(`${alias}.${rest[0].field.column}`), depth + 1);
  return sql`(SELECT ${value} FROM ${sql.table(step.target.table)} AS ${sql.id(alias)} WHERE ${sql.ref(`${alias}.id`)} = ${from})`;
}

/**
 * The terms of one ordering entry of `model` (reached from the listed model through `steps`), as
 * Django expands them: a column; `fk__id` the FK column itself; an FK the target's own ordering,
 * each entry's direction relative to the FK's (the target's id when it has none, or on a loop).
 */
function expand(registry: Registry, base: ResolvedModel, steps: Step[], entry: string, desc: boolean): OrderTerm[] {
  const model = steps.at(-1)?.target ?? base;
  const name = entry.replace(/^-/, '');
  const dir = entry.startsWith('-') !== desc;
  const field = model.fieldMap.get(orderingField(name)) as ResolvedField;
  const column = (c: string): OrderTerm => {
    if (steps.length === 0) return { expr: col(base.table, c), desc: dir };
    const via = steps.length === 1 ? { ...steps[0], column: c } : undefined;
    return { expr: lookUp(steps, c, col(base.table, steps[0].field.column as string)), desc: dir, related: true, via };
  };
  if (field.kind !== 'fk' || !field.to || name.endsWith('__id')) return [column(field.column as string)];
  const target = registry.get(field.to);
  const looped = steps.some((s) => s.field === field) || steps.length >= MAX_STEPS;
  if (looped || target.ordering.length === 0) return [column(field.column as string)];
  return target.ordering.flatMap((e) => expand(registry, base, [...steps, { field, target }], e, dir));
}

/** Whether a `sort` entry names a field a client may sort by (hidden and write-only ones are not). */
function sortable(model: ResolvedModel, entry: string): boolean {
  const field = model.fieldMap.get(orderingField(entry.replace(/^-/, '')));
  return !!field?.column && !field.write_only && !field.hidden;
}

/**
 * ORDER BY terms for a `sort` value (comma-separated, `-` for descending); unknown names are
 * dropped, and with none left the model's ordering applies. `id` ends every order so pages are
 * stable, descending when every other term is (an index then serves the order read backwards).
 */
export function buildOrder(registry: Registry, model: ResolvedModel, sort: string | undefined): OrderTerm[] {
  const known = orders.get(model);
  const cached = known?.get(sort ?? '');
  if (cached) return cached;
  const terms = orderTerms(registry, model, sort);
  // The texts a client sends are bounded: the first ones seen are kept, others worked out each time.
  if ((known?.size ?? 0) < 64) orders.set(model, (known ?? new Map()).set(sort ?? '', terms));
  return terms;
}

/** Order terms by model and `sort` text: worked out once (the terms are immutable query pieces, read by every caller, changed by none). */
const orders = new WeakMap<ResolvedModel, Map<string, OrderTerm[]>>();

function orderTerms(registry: Registry, model: ResolvedModel, sort: string | undefined): OrderTerm[] {
  const asked = (sort ?? '').split(',').map((e) => e.trim()).filter((e) => e && sortable(model, e));
  const entries = asked.length > 0 ? asked : model.ordering.filter((e) => model.fieldMap.get(orderingField(e.replace(/^-/, '')))?.column);
  const terms = entries.flatMap((e) => expand(registry, model, [], e, false));
  return [...terms, { expr: col(model.table, 'id'), desc: terms.length > 0 && terms.every((t) => t.desc) }];
}

/**
 * `ORDER BY` the terms. A term read through an FK puts NULL (no related object) last when
 * ascending and first when descending on every database, as the reference's PostgreSQL does;
 * a column keeps the database's own NULL order, so its index still serves the order.
 */
export function orderBy<Q extends SelectQueryBuilder<any, any, any>>(query: Q, terms: readonly OrderTerm[]): Q {
  return terms.reduce((out, term) => {
    const direction = (ob: OrderByItemBuilder) => (term.desc ? ob.desc() : ob.asc());
    const placed = (ob: OrderByItemBuilder) => (term.desc ? ob.desc().nullsFirst() : ob.asc().nullsLast());
    return out.orderBy(term.expr, term.related ? placed : direction) as Q;
  }, query);
}

