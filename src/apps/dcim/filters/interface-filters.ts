/** Filters of interfaces beyond the derived ones (catalogue `filters` of dcim.interface; reference InterfaceFilterSet). */
import { toUuid } from '../../../core/fields/scalar.js';
import { FALSE, TRUE, col, or } from '../../../db/query/sql-helpers.js';
import { FilterError } from '../../../ops/filters/resolve-values.js';
import { modulesInDevices } from './modules-in-devices.js';
import type { Clause } from '../../../db/query/sql-helpers.js';
import type { FilterContext, FilterDef } from '../../../ops/filters/filter-set.js';

/** Interfaces of the members of a virtual chassis: on the member devices themselves (reference `VirtualChassis.member_interfaces`). */
function chassisInterfaces({ services, model }: FilterContext, chassis: string): Clause {
  const devices = services.registry.get('dcim.device').table;
  return (eb) => eb(col(model.table, 'device_id'), 'in', eb.selectFrom(devices).select(col(devices, 'id').as('member')).where(col(devices, 'virtual_chassis_id'), '=', chassis));
}

/** Interfaces of a device: its own and those of modules installed in it (reference `Device.all_interfaces`). */
function deviceInterfaces({ services, model }: FilterContext, device: string): Clause {
  const modules = modulesInDevices(services.registry, [device]);
  return or([(eb) => eb(col(model.table, 'device_id'), '=', device), (eb) => eb(col(model.table, 'module_id'), 'in', modules(eb))]);
}

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
    return device.virtual_chassis_id === null ? deviceInterfaces(ctx, id) : chassisInterfaces(ctx, String(device.virtual_chassis_id));
  },
};
