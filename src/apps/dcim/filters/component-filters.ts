/**
 * `device` of the modular device components (console ports, console server ports, power ports,
 * power outlets, front and rear ports; interfaces in interface-filters.ts): the components of the
 * device and of modules installed in it (reference nautobot/dcim/filters/mixins.py
 * ModularDeviceComponentModelFilterSetMixin). Device bays and inventory items keep the plain
 * FK filter; module bays have none (`parent_device` instead).
 */
import { col, or } from '../../../db/query/sql-helpers.js';
import { resolveIds } from '../../../ops/filters/resolve-values.js';
import { MODULE_DEPTH_LIMIT, modulesInDevices } from './modules-in-devices.js';
import type { Clause } from '../../../db/query/sql-helpers.js';
import type { FilterContext, FilterDef } from '../../../ops/filters/filter-set.js';
import type { Devices } from './modules-in-devices.js';

/**
 * How many modules deep the component `device` filter looks: one level fewer than a device's
 * modules (the mixin's recursion stops at MODULE_RECURSION_DEPTH_LIMIT - 1 module levels).
 */
export const COMPONENT_MODULE_DEPTH = MODULE_DEPTH_LIMIT - 1;

/** Components on the devices themselves or on modules at most `depth` deep in them (a fixed set of subqueries). */
export function componentsOfDevices({ services, model }: FilterContext, devices: Devices, depth: number): Clause {
  const modules = modulesInDevices(services.registry, devices, depth);
  return or([
    (eb) => eb(col(model.table, 'device_id'), 'in', typeof devices === 'function' ? devices(eb) : devices),
    (eb) => eb(col(model.table, 'module_id'), 'in', modules(eb)),
  ]);
}

/** `device` (device ids or names) of a modular component: on the device or on a module at most three deep in it. */
export const modularComponentDeviceFilter: FilterDef = {
  lookups: new Set(),
  async build(ctx, _lookup, values) {
    const devices = await resolveIds(ctx.exec, ctx.services.registry.get('dcim.device'), values);
    return componentsOfDevices(ctx, devices, COMPONENT_MODULE_DEPTH);
  },
};
