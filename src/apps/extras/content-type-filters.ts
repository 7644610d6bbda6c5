import { FALSE, TRUE, col } from '../../db/query/sql-helpers.js';
import { hasModelPermission } from '../../ops/permissions.js';
import { nullBoolean } from '../shared/null-boolean.js';
import type { Clause } from '../../db/query/sql-helpers.js';
import type { AppExtensions } from '../../ops/extensions.js';
import type { FilterContext, FilterDef } from '../../ops/filters/filter-set.js';
import type { Action } from '../../ops/permissions.js';

/**
 * Feature names the reference's `feature` filter knows (its extras features plus the ones it
 * finds by model fields); any other name matches no content type.
 */
const REFERENCE_FEATURES = new Set([
  'cable_terminations', 'config_context_owners', 'custom_fields', 'custom_links', 'custom_validators', 'dynamic_groups',
  'export_template_owners', 'export_templates', 'graphql_query_owners', 'graphql', 'job_results', 'locations',
  'relationships', 'statuses', 'webhooks', 'cloud_resource_types', 'contacts', 'metadata', 'saved_views',
]);

/** Content types whose `app_label.model` passes `keep` (one read of the small table). */
async function matching(ctx: FilterContext, keep: (modelId: string) => boolean): Promise<Clause> {
  const table = ctx.model.table;
  const rows = await ctx.exec.selectFrom(table).select(['id', 'app_label', 'model']).execute();
  const ids = rows.filter((r) => keep(`${String(r.app_label)}.${String(r.model)}`)).map((r) => r.id);
  return ids.length === 0 ? FALSE : (eb) => eb(col(table, 'id'), 'in', ids);
}

/** A yes/no filter: content types for which `test` answers the given value; no filter for a value that reads as neither. */
function booleanFilter(test: (ctx: FilterContext, modelId: string) => boolean): FilterDef {
  return {
    lookups: new Set(),
    schema: { type: 'boolean' },
    async build(ctx, _lookup, values) {
      const wanted = nullBoolean(values);
      return wanted === undefined ? TRUE : matching(ctx, (id) => test(ctx, id) === wanted);
    },
  };
}

/**
 * `can_<action>`: whether the caller holds that permission on the content type's model (the
 * reference's `user.has_perm`); without a caller, true matches nothing and false everything.
 */
function canFilter(action: Action): FilterDef {
  return booleanFilter(({ services, actor }, id) => !!actor && hasModelPermission(services, actor, action, id));
}

/** `has_serializer`: the model is served by this API (every registry model is; a content type of a model gone since is not). */
const hasSerializer = booleanFilter(({ services }, id) => services.registry.find(id) !== undefined);

/** `feature`: the model supports the named feature (the last value given; empty for no filter). */
const feature: FilterDef = {
  lookups: new Set(),
  async build(ctx, _lookup, values) {
    const name = (values[values.length - 1] ?? '').trim();
    if (name === '') return TRUE;
    if (!REFERENCE_FEATURES.has(name)) return FALSE;
    return matching(ctx, (id) => ctx.services.registry.find(id)?.features.has(name) ?? false);
  },
};

/** The content types' filters beyond their fields (reference ContentTypeFilterSet). */
export const contentTypeFiltersTable: AppExtensions = {
  'contenttypes.contenttype': {
    filters: {
      can_add: canFilter('add'),
      can_change: canFilter('change'),
      can_delete: canFilter('delete'),
      can_view: canFilter('view'),
      has_serializer: hasSerializer,
      feature,
    },
  },
};
