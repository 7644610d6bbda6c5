/** Filters of locations beyond the derived ones (catalogue `filters` of dcim.location; reference LocationFilterSet). */
import { col, or } from '../../../db/query/sql-helpers.js';
import { resolveIds } from '../../../ops/filters/resolve-values.js';
import type { FilterDef } from '../../../ops/filters/filter-set.js';

/**
 * `child_location_type` (location type ids or names): locations that may hold a location of one
 * of the types, i.e. whose type is the parent of one of them, or is one of them and nestable
 * (reference `generate_query__child_location_type`).
 */
export const childLocationTypeFilter: FilterDef = {
  lookups: new Set(),
  async build({ services, exec, model }, _lookup, values) {
    const types = services.registry.get('dcim.locationtype');
    const ids = await resolveIds(exec, types, values);
    const nestable = services.dialect.encode('boolean', true);
    const column = col(model.table, 'location_type_id');
    return or([
      (eb) => eb(column, 'in', eb.selectFrom(types.table).select(col(types.table, 'parent_id').as('parent')).where(col(types.table, 'id'), 'in', ids).where(col(types.table, 'parent_id'), 'is not', null)),
      (eb) => eb(column, 'in', eb.selectFrom(types.table).select(col(types.table, 'id').as('type')).where(col(types.table, 'id'), 'in', ids).where(col(types.table, 'nestable'), '=', nestable)),
    ]);
  },
};
