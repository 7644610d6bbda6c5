import { joinTable } from '../../db/schema/build-schema.js';
import { col } from '../../db/query/sql-helpers.js';
import { filterSet } from '../../ops/filters/filter-set.js';
import { invalidChoice, resolveIds } from '../../ops/filters/resolve-values.js';
import type { ExpressionBuilder } from 'kysely';
import type { FilterDef } from '../../ops/filters/filter-set.js';
import type { Services } from '../../ops/services.js';

/** Where users are named: a user FK (`extras.objectchange.user`) or a users m2m (`users.objectpermission.users`). */
type Source = { modelId: string; field: string };

function parseBool(raw: string | undefined): boolean {
  if (raw === 'true' || raw === 'True' || raw === '1') return true;
  if (raw === 'false' || raw === 'False' || raw === '0') return false;
  throw invalidChoice(String(raw));
}

/** A subquery of the user ids that rows of `src` (optionally only `rowIds`) name. */
function userIds(services: Services, src: Source, rowIds?: string[]) {
  const model = services.registry.get(src.modelId);
  const field = model.fieldMap.get(src.field)!;
  return (eb: ExpressionBuilder<any, any>) => {
    if (field.behaviour.relation === 'm2m') {
      const link = joinTable(model, field);
      const all = eb.selectFrom(link).select(`${link}.target_id`);
      return rowIds ? all.where(`${link}.source_id`, 'in', rowIds) : all;
    }
    const column = `${model.table}.${field.column}`;
    const all = eb.selectFrom(model.table).select(column).where(column, 'is not', null);
    return rowIds ? all.where(`${model.table}.id`, 'in', rowIds) : all;
  };
}

/** `has_<x>=true|false`: users named (or not) by some row of `src`. */
function hasFilter(src: Source): FilterDef {
  return {
    lookups: new Set(),
    schema: { type: 'boolean' },
    async build({ services, model }, _lookup, values) {
      const yes = parseBool(values.at(-1));
      return (eb) => eb(col(model.table, 'id'), yes ? 'in' : 'not in', userIds(services, src)(eb));
    },
  };
}

/** `<x>=<id>` (and `__n`): users named by the given rows of `src` (any of them). */
function rowsFilter(src: Source): FilterDef {
  return {
    lookups: new Set(['n']),
    async build({ services, exec, model }, lookup, values) {
      const rowIds = await resolveIds(exec, services.registry.get(src.modelId), values);
      return (eb) => eb(col(model.table, 'id'), lookup === 'n' ? 'not in' : 'in', userIds(services, src, rowIds)(eb));
    },
  };
}

/** `groups_id`: the generated `groups` filter under the reference's second name. */
const groupsId: FilterDef = {
  lookups: new Set(['n']),
  build: (ctx, lookup, values) => filterSet(ctx.model).get('groups')!.build(ctx, lookup, values),
};

const PERMISSIONS: Source = { modelId: 'users.objectpermission', field: 'users' };
const CHANGES: Source = { modelId: 'extras.objectchange', field: 'user' };
const RESERVATIONS: Source = { modelId: 'dcim.rackreservation', field: 'user' };

/** Filters of users.user beyond its fields (catalogue users.user `filters`). */
export const userFilters: Record<string, FilterDef> = {
  groups_id: groupsId,
  object_permissions: rowsFilter(PERMISSIONS),
  has_object_permissions: hasFilter(PERMISSIONS),
  object_changes: rowsFilter(CHANGES),
  has_object_changes: hasFilter(CHANGES),
  rack_reservations_id: rowsFilter(RESERVATIONS),
  has_rack_reservations: hasFilter(RESERVATIONS),
};

/** Filters of users.objectpermission beyond its fields. */
export const permissionFilters: Record<string, FilterDef> = { groups_id: groupsId };
