import { ValidationError } from '../../../core/errors.js';
import { FALSE, TRUE, and, not, or } from '../../../db/query/sql-helpers.js';
import { buildWhere } from '../../../ops/filters/apply.js';
import type { Clause } from '../../../db/query/sql-helpers.js';
import type { Exec } from '../../../db/store.js';
import type { ResolvedModel, Row } from '../../../core/registry/types.js';
import type { Params } from '../../../ops/filters/apply.js';
import type { Services } from '../../../ops/services.js';

/** Deepest nesting of dynamic-set groups followed (the reference refuses loops on save; this bounds a stored one). */
const MAX_NESTING = 32;

type Ctx = { services: Services; exec: Exec; model: ResolvedModel };

/** A filter value as query parameter texts (`{"location": ["a", "b"], "has_interfaces": true}`). */
function toTexts(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map((v) => (v === null ? 'null' : typeof v === 'boolean' ? (v ? 'True' : 'False') : typeof v === 'object' ? JSON.stringify(v) : String(v)));
}

/** A dynamic-filter group's `filter` as the query parameters of its model's REST filter set. */
export function filterParams(filter: unknown): Params {
  const entries = filter && typeof filter === 'object' && !Array.isArray(filter) ? Object.entries(filter as Record<string, unknown>) : [];
  return new Map(entries.map(([key, value]) => [key, toTexts(value)]));
}

/**
 * Rows of `table` whose id is in the set `clause` selects: a two-valued test, so that `NOT`
 * (difference) never meets a NULL from inside the group's own predicate.
 */
function idIn(table: string, clause: Clause): Clause {
  return (eb) => eb(`${table}.id`, 'in', eb.selectFrom(table).select(`${table}.id`).where(clause));
}

/** Objects statically associated with the group. */
function staticClause(ctx: Ctx, groupId: string): Clause {
  const table = ctx.model.table;
  return (eb) => eb(`${table}.id`, 'in', eb.selectFrom('extras_staticgroupassociation').select('associated_object_id').where('dynamic_group_id', '=', groupId));
}

/**
 * The group's filter through the model's REST filter set (every filter and lookup a list takes).
 * A filter the filter set refuses (a name deleted since) is a 400 naming the group's filter keys.
 */
async function filterClause(ctx: Ctx, group: Row): Promise<Clause> {
  try {
    return await buildWhere({ services: ctx.services, exec: ctx.exec, model: ctx.model, actor: null }, filterParams(group.filter));
  } catch (err) {
    if (err instanceof ValidationError) throw new ValidationError({ filter: [`Filter of dynamic group "${String(group.name)}" is not valid: ${JSON.stringify(err.body)}`] });
    throw err;
  }
}

/** Child memberships of a dynamic-set group with their groups, in the reference's order (weight, then group). */
async function childrenOf(ctx: Ctx, groupId: string): Promise<{ operator: string; group: Row }[]> {
  const rows = await ctx.exec.selectFrom('extras_dynamicgroupmembership as m').innerJoin('extras_dynamicgroup as g', 'g.id', 'm.group_id')
    .select(['m.operator', 'm.weight', 'g.id', 'g.name', 'g.group_type', 'g.filter', 'g.content_type'])
    .where('m.parent_group_id', '=', groupId).orderBy('m.weight').orderBy('g.content_type').orderBy('g.name').execute();
  return rows.map((r) => ({
    operator: String(r.operator),
    group: { id: String(r.id), name: r.name, group_type: r.group_type, content_type: r.content_type, filter: ctx.services.dialect.decode('json', r.filter) },
  }));
}

/**
 * Folds children as the reference's `generate_query` does, starting from an empty predicate that
 * the first child replaces: union ORs, intersection ANDs, difference ANDs the complement.
 */
function combine(query: Clause | null, operator: string, next: Clause): Clause {
  if (operator === 'union') return query ? or([query, next]) : next;
  if (operator === 'intersection') return query ? and([query, next]) : next;
  return query ? and([query, not(next)]) : not(next);
}

/**
 * Members of a group of `ctx.model` as a predicate on its table, computed at query time:
 * `dynamic-filter` from its filter (an empty filter: every object, as the reference), `static`
 * from its associations, `dynamic-set` from its children (no children: every object).
 */
export async function membershipClause(ctx: Ctx, group: Row, depth = 0): Promise<Clause> {
  if (String(group.content_type) !== ctx.model.id) return FALSE;
  const type = String(group.group_type);
  if (type === 'static') return staticClause(ctx, String(group.id));
  if (type === 'dynamic-filter') return idIn(ctx.model.table, await filterClause(ctx, group));
  if (depth >= MAX_NESTING) return FALSE;
  let query: Clause | null = null;
  for (const child of await childrenOf(ctx, String(group.id))) {
    query = combine(query, child.operator, await membershipClause(ctx, child.group, depth + 1));
  }
  return query ?? TRUE;
}

/** Objects that are members of any of the groups. */
export async function anyGroupClause(ctx: Ctx, groups: Row[]): Promise<Clause> {
  const clauses: Clause[] = [];
  for (const group of groups) clauses.push(await membershipClause(ctx, group));
  return or(clauses);
}

