import { sql } from 'kysely';
import { col } from './sql-helpers.js';
import type { RawBuilder } from 'kysely';
import type { Registry } from '../../core/registry/registry.js';
import type { ResolvedModel } from '../../core/registry/types.js';

/** One ORDER BY term; `related` when it reads another table (an FK's ordering, a subquery). */
export type OrderTerm = { expr: RawBuilder<unknown>; desc: boolean; related?: boolean };

/** A column, or for an FK the related object's first ordering column (a correlated subquery). */
function orderExpr(registry: Registry, model: ResolvedModel, name: string): RawBuilder<unknown> | undefined {
  const field = model.fieldMap.get(name);
  if (!field?.column || field.write_only || field.hidden) return undefined;
  if (field.kind !== 'fk' || !field.to) return col(model.table, field.column);
  const target = registry.get(field.to);
  const first = target.ordering.map((o) => target.fieldMap.get(o.replace(/^-/, ''))).find((f) => f?.column && f.kind !== 'fk');
  const targetCol = first?.column ?? 'id';
  return sql`(SELECT ${sql.ref(`t_${name}.${targetCol}`)} FROM ${sql.table(target.table)} AS ${sql.id(`t_${name}`)} WHERE ${sql.ref(`t_${name}.id`)} = ${col(model.table, field.column)})`;
}

/**
 * ORDER BY terms for a `sort` value (comma-separated, `-` for descending); unknown names are
 * dropped, and with none left the model's ordering applies. `id` ends every order so pages are stable.
 */
export function buildOrder(registry: Registry, model: ResolvedModel, sort: string | undefined): OrderTerm[] {
  const parse = (names: readonly string[]) =>
    names
      .map((n) => n.trim())
      .filter(Boolean)
      .map((n) => ({ name: n.replace(/^-/, ''), desc: n.startsWith('-') }))
      .map(({ name, desc }) => ({ expr: orderExpr(registry, model, name), desc, related: model.fieldMap.get(name)?.kind === 'fk' }))
      .filter((t): t is OrderTerm & { related: boolean } => !!t.expr);
  let terms = sort ? parse(sort.split(',')) : [];
  if (terms.length === 0) terms = parse(model.ordering);
  return [...terms, { expr: col(model.table, 'id'), desc: false }];
}
