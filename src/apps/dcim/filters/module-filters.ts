/**
 * Filters of modules, module types and module families about where modules sit and which
 * family a module bay takes (catalogue `filters` of dcim.module, dcim.moduletype and
 * dcim.modulefamily; reference nautobot/dcim/filters/__init__.py ModuleFilterSet,
 * ModuleTypeFilterSet, ModuleFamilyFilterSet).
 */
import { toRowId } from '../../../core/registry/row-id.js';
import { FALSE, TRUE, col } from '../../../db/query/sql-helpers.js';
import { FilterError, requireRowIds, resolveIds } from '../../../ops/filters/resolve-values.js';
import { MODULE_DEPTH_LIMIT, findDeviceModules, modulesOf } from './modules-in-devices.js';
import type { Clause } from '../../../db/query/sql-helpers.js';
import type { FilterContext, FilterDef } from '../../../ops/filters/filter-set.js';

const UUID_SCHEMA = { type: 'string', format: 'uuid' };

/** The reference's ModelChoiceField message for a value naming no object. */
const NO_SUCH_BAY = 'Select a valid choice. That choice is not one of the available choices.';

/** `device` of a module (device ids or names): installed in the device at any depth the reference looks (modules-in-devices.ts). */
export const moduleDeviceFilter: FilterDef = {
  lookups: new Set(),
  async build({ services, exec, model }, _lookup, values) {
    const devices = await resolveIds(exec, services.registry.get('dcim.device'), values);
    const modules = modulesOf(await findDeviceModules(exec, services.registry, devices, { depth: MODULE_DEPTH_LIMIT }), devices);
    return modules.length > 0 ? (eb) => eb(col(model.table, 'id'), 'in', modules) : FALSE;
  },
};

/** How rows of a model belong to a module family: a module type by its own, a module by its type's. */
const IN_FAMILY: Record<string, (ctx: FilterContext, family: string) => Clause> = {
  'dcim.moduletype': ({ model }, family) => (eb) => eb(col(model.table, 'module_family_id'), '=', family),
  'dcim.module': ({ services, model }, family) => {
    const types = services.registry.get('dcim.moduletype').table;
    return (eb) => eb(col(model.table, 'module_type_id'), 'in', eb.selectFrom(types).select(col(types, 'id').as('type')).where(col(types, 'module_family_id'), '=', family));
  },
};

/** The module family a module bay (one id) requires: null for none; a FilterError when the value names no bay. */
async function bayFamily({ services, exec }: FilterContext, value: string): Promise<string | null> {
  const bays = services.registry.get('dcim.modulebay');
  const id = toRowId(bays, value);
  const row = id ? await exec.selectFrom(bays.table).select('module_family_id').where('id', '=', id).executeTakeFirst() : undefined;
  if (!row) throw new FilterError(NO_SUCH_BAY);
  return row.module_family_id === null ? null : String(row.module_family_id);
}

/**
 * `compatible_with_module_bay` (one module bay id, the last given): rows of the family the bay
 * requires; every row when the bay requires none or the value is empty (reference `filter_module_bay`).
 */
export const compatibleWithModuleBayFilter: FilterDef = {
  lookups: new Set(),
  schema: UUID_SCHEMA,
  async build(ctx, _lookup, values) {
    const value = values[values.length - 1] ?? '';
    if (value === '') return TRUE;
    const family = await bayFamily(ctx, value);
    return family === null ? TRUE : IN_FAMILY[ctx.model.id](ctx, family);
  },
};

/**
 * `module_bay_id` of a module family (module bay ids): the families the bays require; a bay
 * requiring none adds no family. The reference declares this filter on a name its model lacks
 * (ModuleFamily has `module_bays`), so it errors there; this is the filter its label describes.
 */
export const moduleBayFamiliesFilter: FilterDef = {
  lookups: new Set(),
  schema: UUID_SCHEMA,
  async build({ services, exec, model }, _lookup, values) {
    const bays = services.registry.get('dcim.modulebay');
    requireRowIds(bays, values);
    const ids = await resolveIds(exec, bays, values);
    const families = (eb: Parameters<Clause>[0]) => eb.selectFrom(bays.table).select(col(bays.table, 'module_family_id').as('family'))
      .where(col(bays.table, 'id'), 'in', ids).where(col(bays.table, 'module_family_id'), 'is not', null);
    return (eb) => eb(col(model.table, 'id'), 'in', families(eb));
  },
};
