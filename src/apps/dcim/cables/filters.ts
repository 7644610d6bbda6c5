import { FALSE, col, not, or } from '../../../db/query/sql-helpers.js';
import { FilterError, resolveIds, withDescendants } from '../../../ops/filters/resolve-values.js';
import type { Clause } from '../../../db/query/sql-helpers.js';
import type { FilterContext, FilterDef } from '../../../ops/filters/filter-set.js';

const TRUE_TEXT = new Set(['true', 'True', '1', 'yes', 'on']);
const FALSE_TEXT = new Set(['false', 'False', '0', 'no', 'off']);

/** A yes/no filter: `build` gives the predicate for the last value sent. */
function booleanFilter(build: (ctx: FilterContext, value: boolean) => Clause): FilterDef {
  return {
    lookups: new Set(),
    schema: { type: 'boolean' },
    async build(ctx, _lookup, values) {
      const raw = values[values.length - 1] ?? '';
      if (!TRUE_TEXT.has(raw) && !FALSE_TEXT.has(raw)) throw new FilterError(`Select a valid choice. ${raw} is not one of the available choices.`);
      return build(ctx, TRUE_TEXT.has(raw));
    },
  };
}

/** `has_cable`: the termination carries a cable (or not). */
export const hasCableFilter = booleanFilter(({ model }, value) => (eb) => eb(col(model.table, 'cable_id'), value ? 'is not' : 'is', null));

/** `connected`: the endpoint's path reaches a destination over connected cables (or not). */
export const connectedFilter = booleanFilter(({ services, model }, value) => {
  const reachable = col(model.table, 'connected_endpoint_reachable');
  const active: Clause = (eb) => eb(reachable, '=', services.dialect.encode('boolean', true));
  return value ? active : (eb) => eb.or([eb(reachable, 'is', null), not(active)(eb)]);
});

/** Device ids a cable filter value names: devices themselves, or devices by rack, location (with descendants) or tenant. */
type DeviceIds = (ctx: FilterContext, values: string[]) => Promise<Clause>;

const bothEnds = (table: string, ids: (eb: Parameters<Clause>[0]) => never): Clause => (eb) =>
  eb.or([eb(col(table, 'termination_a_device_id'), 'in', ids(eb)), eb(col(table, 'termination_b_device_id'), 'in', ids(eb))]);

function devicesBy(target: string, column: string | null, opts: { tree?: boolean } = {}): DeviceIds {
  return async ({ services, exec, model }, values) => {
    const related = services.registry.get(target);
    let ids = await resolveIds(exec, related, values);
    if (opts.tree) ids = await withDescendants(exec, related, ids);
    if (ids.length === 0) return FALSE;
    const devices = services.registry.get('dcim.device').table;
    if (!column) return bothEnds(model.table, () => ids as never);
    return bothEnds(model.table, (eb) => eb.selectFrom(devices).select('id').where(column, 'in', ids) as never);
  };
}

function cableFilter(resolve: DeviceIds): FilterDef {
  return { lookups: new Set(['n']), async build(ctx, lookup, values) {
    const clause = await resolve(ctx, values);
    return lookup === 'n' ? not(clause) : clause;
  } };
}

/** `termination_type`: either end is of one of the given types. */
const terminationType: FilterDef = {
  lookups: new Set(),
  async build({ model }, _lookup, values) {
    return or(['termination_a_type', 'termination_b_type'].map((c) => (eb) => eb(col(model.table, c), 'in', values)));
  },
};

/** Cable filters beyond its fields (catalogue): by the device, rack, location or tenant of either end. */
export const CABLE_FILTERS: Record<string, FilterDef> = {
  device: cableFilter(devicesBy('dcim.device', null)),
  device_id: cableFilter(devicesBy('dcim.device', null)),
  rack: cableFilter(devicesBy('dcim.rack', 'rack_id')),
  rack_id: cableFilter(devicesBy('dcim.rack', 'rack_id')),
  location: cableFilter(devicesBy('dcim.location', 'location_id', { tree: true })),
  location_id: cableFilter(devicesBy('dcim.location', 'location_id', { tree: true })),
  tenant: cableFilter(devicesBy('tenancy.tenant', 'tenant_id')),
  tenant_id: cableFilter(devicesBy('tenancy.tenant', 'tenant_id')),
  termination_type: terminationType,
};
