import { not } from '../../../db/query/sql-helpers.js';
import { invalidChoice, resolveIds } from '../../../ops/filters/resolve-values.js';
import { anyGroupClause } from './membership.js';
import type { AppDefinition } from '../../../core/registry/registry.js';
import type { Row } from '../../../core/registry/types.js';
import type { AppExtensions, ModelExtensions } from '../../../ops/extensions.js';
import type { FilterContext, FilterDef } from '../../../ops/filters/filter-set.js';

/** Groups named by id or name, each of the filtered model's content type (others are invalid choices, as the reference's query_params). */
async function groupsNamed(ctx: FilterContext, values: string[]): Promise<Row[]> {
  const model = ctx.services.registry.get('extras.dynamicgroup');
  const ids = await resolveIds(ctx.exec, model, values);
  const rows = ids.length === 0 ? [] : await ctx.exec.selectFrom(model.table).select(['id', 'name', 'group_type', 'filter', 'content_type']).where('id', 'in', ids).execute();
  const groups = rows.map((r) => ({ ...r, id: String(r.id), filter: ctx.services.dialect.decode('json', r.filter) }) as Row);
  for (const value of values) {
    const group = groups.find((g) => g.id === value || g.name === value);
    if (group && group.content_type !== ctx.model.id) throw invalidChoice(value);
  }
  return groups;
}

/**
 * `dynamic_groups` (and `__n`): objects that are members of any of the named groups (by id or
 * name), membership computed in SQL as the request runs (reference: NaturalKeyOrPKMultipleChoiceFilter
 * over the cached static associations; here there is no cache to go stale).
 */
export const DYNAMIC_GROUPS_FILTER: FilterDef = {
  lookups: new Set(['n']),
  schema: { type: 'string', description: 'Dynamic groups (name or ID)' },
  async build(ctx, lookup, values) {
    const clause = await anyGroupClause(ctx, await groupsNamed(ctx, values));
    return lookup === 'n' ? not(clause) : clause;
  },
};

/** The filter on every model with the `dynamic_groups` feature. */
export function dynamicGroupFilters(apps: AppDefinition[]): AppExtensions {
  const ext: ModelExtensions = { filters: { dynamic_groups: DYNAMIC_GROUPS_FILTER } };
  const out: AppExtensions = {};
  for (const app of apps) for (const model of app.models) if (model.features?.includes('dynamic_groups')) out[`${model.app}.${model.model}`] = ext;
  return out;
}
