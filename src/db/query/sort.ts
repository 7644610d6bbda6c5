import { sql } from 'kysely';
import { orderingField } from '../../core/registry/resolve.js';
import { col } from './sql-helpers.js';
import type { RawBuilder } from 'kysely';
import type { Registry } from '../../core/registry/registry.js';
import type { ResolvedField, ResolvedModel } from '../../core/registry/types.js';

/**
 * An FK's place in an order: its target's first own ordering column (Django orders by the
 * target's ordering), read from the target table.
 */
export type OrderThrough = { field: ResolvedField; target: ResolvedModel; column: string };

/**
 * One ORDER BY term; `related` when it reads another table (an FK's ordering, a subquery), and
 * then `through` names the FK and the target column it sorts by.
 */
export type OrderTerm = { expr: RawBuilder<unknown>; desc: boolean; related?: boolean; through?: OrderThrough };

/** The target column an FK sorts by: the target's first ordering entry that is its own column. */
function throughFk(registry: Registry, field: ResolvedField): OrderThrough {
  const target = registry.get(field.to as string);
  const first = target.ordering.map((o) => target.fieldMap.get(orderingField(o))).find((f) => f?.column && f.kind !== 'fk');
  return { field, target, column: first?.column ?? 'id' };
}

/** The term of one ordering entry, or undefined for a name that cannot be sorted by. */
function orderTerm(registry: Registry, model: ResolvedModel, entry: string, own: boolean): OrderTerm | undefined {
  const desc = entry.startsWith('-');
  const name = entry.replace(/^-/, '');
  const field = model.fieldMap.get(orderingField(name));
  // Hidden columns (natural-order keys) order lists by the model's ordering, never by `sort`.
  if (!field?.column || field.write_only || (field.hidden && !own)) return undefined;
  if (field.kind !== 'fk' || !field.to || name.endsWith('__id')) return { expr: col(model.table, field.column), desc };
  const through = throughFk(registry, field);
  const alias = `t_${field.name}`;
  const expr = sql`(SELECT ${sql.ref(`${alias}.${through.column}`)} FROM ${sql.table(through.target.table)} AS ${sql.id(alias)} WHERE ${sql.ref(`${alias}.id`)} = ${col(model.table, field.column)})`;
  return { expr, desc, related: true, through };
}

/**
 * ORDER BY terms for a `sort` value (comma-separated, `-` for descending); unknown names are
 * dropped, and with none left the model's ordering applies. `id` ends every order so pages are stable.
 */
export function buildOrder(registry: Registry, model: ResolvedModel, sort: string | undefined): OrderTerm[] {
  const parse = (entries: readonly string[], own: boolean) => entries
    .map((e) => e.trim())
    .filter(Boolean)
    .map((e) => orderTerm(registry, model, e, own))
    .filter((t): t is OrderTerm => !!t);
  let terms = sort ? parse(sort.split(','), false) : [];
  if (terms.length === 0) terms = parse(model.ordering, true);
  return [...terms, { expr: col(model.table, 'id'), desc: false }];
}
