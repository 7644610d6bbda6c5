/**
 * `device` of the modular device components (console ports, console server ports, power ports,
 * power outlets, front and rear ports; interfaces in interface-filters.ts): the components of the
 * device and of modules installed in it (reference nautobot/dcim/filters/mixins.py
 * ModularDeviceComponentModelFilterSetMixin). Device bays and inventory items keep the plain
 * FK filter; module bays have none (`parent_device` instead).
 */
import { col, or } from '../../../db/query/sql-helpers.js';
import { resolveIds } from '../../../ops/filters/resolve-values.js';
import { MODULE_DEPTH_LIMIT, findDeviceModules, modulesOf } from './modules-in-devices.js';
import type { Clause } from '../../../db/query/sql-helpers.js';
import type { FilterContext, FilterDef } from '../../../ops/filters/filter-set.js';

/**
 * How many modules deep the component `device` filter looks: one level fewer than a device's
 * modules (the mixin's recursion stops at MODULE_RECURSION_DEPTH_LIMIT - 1 module levels).
 */
export const COMPONENT_MODULE_DEPTH = MODULE_DEPTH_LIMIT - 1;

/** Components on the devices themselves or on modules at most `depth` deep in them. */
export async function componentsOfDevices(ctx: FilterContext, devices: string[], depth: number): Promise<Clause> {
  return or(componentClauses(ctx, devices, modulesOf(await findDeviceModules(ctx.exec, ctx.services.registry, devices, { depth }), devices)));
}

/**
 * Components on the devices or on the given modules, as alternatives that each look one indexed
 * column up (no module subquery runs per row); the modules' one is left out when there are none.
 */
export function componentClauses({ model }: FilterContext, devices: string[], modules: string[]): Clause[] {
  return [
    ...(devices.length > 0 ? [(eb: Parameters<Clause>[0]) => eb(col(model.table, 'device_id'), 'in', devices)] : []),
    ...(modules.length > 0 ? [(eb: Parameters<Clause>[0]) => eb(col(model.table, 'module_id'), 'in', modules)] : []),
  ];
}

/** `device` (device ids or names) of a modular component: on the device or on a module at most three deep in it. */
export const modularComponentDeviceFilter: FilterDef = {
  lookups: new Set(),
  async build(ctx, _lookup, values) {
    const devices = await resolveIds(ctx.exec, ctx.services.registry.get('dcim.device'), values);
    return componentsOfDevices(ctx, devices, COMPONENT_MODULE_DEPTH);
  },
};
