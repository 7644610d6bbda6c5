/**
 * Filters over the IPAM assignment (through) models: prefixes and VLANs by location, VLANs
 * available on a device, VRFs by device and by prefix (catalogue `filters` of ipam.prefix,
 * ipam.vlan and ipam.vrf).
 */
import { toUuid } from '../../../core/fields/scalar.js';
import { col, not, or } from '../../../db/query/sql-helpers.js';
import { FilterError, resolveIds, withDescendants } from '../../../ops/filters/resolve-values.js';
import { withAncestors } from '../../shared/ancestors.js';
import { T } from '../net.js';
import type { Clause } from '../../../db/query/sql-helpers.js';
import type { FilterDef } from '../../../ops/filters/filter-set.js';

/** An owner's assignments: `through` rows link `ownerColumn` (the owner's id) to `targetColumn`. */
export type Assignment = { through: string; ownerColumn: string; targetColumn: string };

/** Owners (rows of the filtered model) with an assignment to one of `targets`. */
function assignedTo(table: string, link: Assignment, targets: string[] | ((eb: Parameters<Clause>[0]) => any)): Clause {
  return (eb) => eb(col(table, 'id'), 'in', eb.selectFrom(link.through).select(col(link.through, link.ownerColumn).as('owner'))
    .where(col(link.through, link.targetColumn), 'in', typeof targets === 'function' ? targets(eb) : targets));
}

/** `location` / `locations`: assigned to any of the locations (id or name) or their descendants. */
export function assignedLocationFilter(link: Assignment): FilterDef {
  return {
    lookups: new Set(['n']),
    async build({ services, exec, model }, lookup, values) {
      const locations = services.registry.get('dcim.location');
      const ids = await withDescendants(exec, locations, await resolveIds(exec, locations, values));
      const clause = assignedTo(model.table, link, ids);
      return lookup === 'n' ? not(clause) : clause;
    },
  };
}

/** `<target>` by id or natural key, through an assignment (`device` of a VRF: the VRF is assigned to the device). */
export function assignedObjectFilter(link: Assignment & { target: string }): FilterDef {
  return {
    lookups: new Set(['n']),
    async build({ services, exec, model }, lookup, values) {
      const clause = assignedTo(model.table, link, await resolveIds(exec, services.registry.get(link.target), values));
      return lookup === 'n' ? not(clause) : clause;
    },
  };
}

/** `prefix` of a VRF: assigned to a prefix matching the prefix model's own `prefix` filter (`10.0.0.0/24`). */
export function assignedPrefixFilter(link: Assignment, prefixFilter: FilterDef): FilterDef {
  return {
    lookups: new Set(),
    async build(ctx, lookup, values) {
      const prefixes = ctx.services.registry.get('ipam.prefix');
      const where = await prefixFilter.build({ ...ctx, model: prefixes }, lookup, values);
      return assignedTo(ctx.model.table, link, (eb) => eb.selectFrom(T.prefix).select(col(T.prefix, 'id').as('prefix')).where(where));
    },
  };
}

/** `available_on_device` of a VLAN (device ids): VLANs with no location, or at a device's location or one of its ancestors. */
export function availableOnDeviceFilter(link: Assignment): FilterDef {
  return {
    lookups: new Set(),
    async build({ services, exec, model }, _lookup, values) {
      const ids = values.map((v) => toUuid(v.trim()));
      if (ids.some((id) => !id)) throw new FilterError('Enter a valid UUID.');
      const devices = services.registry.get('dcim.device');
      const rows = await exec.selectFrom(devices.table).select('location_id').where('id', 'in', ids as string[]).execute();
      if (rows.length === 0) return (eb) => eb(col(model.table, 'id'), 'is', null);
      const locations = await withAncestors(services, exec, services.registry.get('dcim.location'), rows.map((r) => String(r.location_id)));
      const unplaced: Clause = (eb) => eb(col(model.table, 'id'), 'not in', eb.selectFrom(link.through).select(col(link.through, link.ownerColumn).as('owner')));
      return or([unplaced, assignedTo(model.table, link, locations)]);
    },
  };
}
