/** Filters of interfaces beyond the derived ones (catalogue `filters` of dcim.interface; reference InterfaceFilterSet). */
import { toUuid } from '../../../core/fields/scalar.js';
import { FALSE, TRUE, and, col, or } from '../../../db/query/sql-helpers.js';
import { FilterError, requireRowIds, resolveIds } from '../../../ops/filters/resolve-values.js';
import { componentClauses, componentsOfDevices } from './component-filters.js';
import { MODULE_DEPTH_LIMIT, findDeviceModules, modulesOf } from './modules-in-devices.js';
import type { Clause } from '../../../db/query/sql-helpers.js';
import type { FilterContext, FilterDef } from '../../../ops/filters/filter-set.js';

/** Interfaces of the members of a virtual chassis: on the member devices themselves (reference `VirtualChassis.member_interfaces`). */
function chassisInterfaces({ services, model }: FilterContext, chassis: string): Clause {
  const devices = services.registry.get('dcim.device').table;
  return (eb) => eb(col(model.table, 'device_id'), 'in', eb.selectFrom(devices).select(col(devices, 'id').as('member')).where(col(devices, 'virtual_chassis_id'), '=', chassis));
}

/** Interfaces of devices: their own and those of modules installed in them (reference `Device.all_interfaces`). */
function deviceInterfaces(ctx: FilterContext, devices: string[]): Promise<Clause> {
  return componentsOfDevices(ctx, devices, MODULE_DEPTH_LIMIT);
}

/**
 * Interfaces of devices as the reference's `Device.vc_interfaces` gives them: each device's own
 * and its modules' and, for a device that is the master of a virtual chassis, the interfaces
 * (own and modules') of the other members that are not management-only.
 */
async function vcInterfaces(ctx: FilterContext, devices: string[]): Promise<Clause> {
  const { services, model, exec } = ctx;
  // The members of the chassis the devices master (the masters among them: their interfaces are all in already).
  const found = await findDeviceModules(exec, services.registry, devices, { depth: MODULE_DEPTH_LIMIT, withMembers: true });
  const notManagement = services.dialect.encode('boolean', false);
  const unmanaged: Clause = (eb) => eb(col(model.table, 'mgmt_only'), '=', notManagement);
  // One flat OR of alternatives that each start with an indexed column, so the database can
  // look each up by index instead of testing every interface.
  return or([
    ...componentClauses(ctx, devices, modulesOf(found, devices)),
    ...componentClauses(ctx, found.members, modulesOf(found, found.members)).map((c) => and([c, unmanaged])),
  ]);
}

/** `device` of an interface (device ids or names): the devices' `vc_interfaces` (reference InterfaceFilterSet `filter_device`). */
export const interfaceDeviceFilter: FilterDef = {
  lookups: new Set(),
  async build(ctx, _lookup, values) {
    return vcInterfaces(ctx, await resolveIds(ctx.exec, ctx.services.registry.get('dcim.device'), values));
  },
};

/** `device_id` of an interface (device ids only): as `device` (reference InterfaceFilterSet `filter_device_id`). */
export const interfaceDeviceIdFilter: FilterDef = {
  lookups: new Set(),
  schema: { type: 'string', format: 'uuid' },
  async build(ctx, _lookup, values) {
    const devices = ctx.services.registry.get('dcim.device');
    requireRowIds(devices, values);
    return vcInterfaces(ctx, await resolveIds(ctx.exec, devices, values));
  },
};

/**
 * `device_with_common_vc` (one device id, the last given): the interfaces of every member of the
 * device's virtual chassis, or of the device alone when it is in none; none for an unknown device,
 * every interface for an empty value (reference `filter_device_common_vc_id`, `Device.common_vc_interfaces`).
 */
export const deviceWithCommonVcFilter: FilterDef = {
  lookups: new Set(),
  schema: { type: 'string', format: 'uuid' },
  async build(ctx, _lookup, values) {
    const value = (values[values.length - 1] ?? '').trim();
    if (value === '') return TRUE;
    const id = toUuid(value);
    if (!id) throw new FilterError('Enter a valid UUID.');
    const devices = ctx.services.registry.get('dcim.device').table;
    const device = await ctx.exec.selectFrom(devices).select('virtual_chassis_id').where('id', '=', id).executeTakeFirst();
    if (!device) return FALSE;
    return device.virtual_chassis_id === null ? deviceInterfaces(ctx, [id]) : chassisInterfaces(ctx, String(device.virtual_chassis_id));
  },
};
