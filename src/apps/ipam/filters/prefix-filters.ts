/**
 * Filters of ipam.prefix beyond the generated ones (catalogue `filters`, api-behaviour.md
 * section 7 "IPAM", the spec's network lookups).
 */
import { sql } from 'kysely';
import { toUuid } from '../../../core/fields/scalar.js';
import { TRUE, col, escapeLike, or } from '../../../db/query/sql-helpers.js';
import { storableInteger } from '../../../ops/filters/integer-range.js';
import { FilterError } from '../../../ops/filters/resolve-values.js';
import { T } from '../net.js';
import { searchNetworks } from '../search-networks.js';
import { familyClause, fixedNetFilter, networkFilter, parseNetValue, rangeOps } from './network.js';
import { assignedLocationFilter } from './assignment-filters.js';
import { presentInVrfFilter, vrfFilter } from './vrf-scope.js';
import type { Clause } from '../../../db/query/sql-helpers.js';
import type { FilterDef } from '../../../ops/filters/filter-set.js';

const ops = rangeOps(T.prefix);

/** `network` exact is the first address alone; its other lookups are the prefix's. */
const networkField: FilterDef = networkFilter(T.prefix, {
  ...ops,
  exact: (net) => (eb) => eb.and([eb(col(T.prefix, 'ip_version'), '=', net.version), eb(col(T.prefix, 'network'), '=', net.host)]),
});

const broadcastField: FilterDef = {
  lookups: new Set(),
  async build(_ctx, _lookup, values) {
    return or(values.map((text) => {
      const net = parseNetValue(text);
      return (eb) => eb.and([eb(col(T.prefix, 'ip_version'), '=', net.version), eb(col(T.prefix, 'broadcast'), '=', net.host)]);
    }));
  },
};

/** `contains`: prefixes holding a CIDR (or equal to it) or a bare address. */
const containsFilter = fixedNetFilter((net, text) => (text.includes('/') ? ops.net_contains_or_equals(net) : ops.net_host(net)));

/**
 * `q`: description contains the term, or the prefix lies inside or around the network the term
 * reads as, a partial address widened ("10.1" is 10.1.0.0/16, any mask ignored;
 * search-networks.ts), as the reference's `BaseNetworkQuerySet.string_search`.
 */
const qFilter: FilterDef = {
  lookups: new Set(),
  async build({ services }, _lookup, values) {
    const term = values[values.length - 1]?.trim() ?? '';
    if (term === '') return TRUE;
    const description: Clause = () => services.dialect.ilike(col(T.prefix, 'description'), `%${escapeLike(term)}%`) as never;
    return or([description, ...searchNetworks(term).flatMap((net) => [ops.net_contained_or_equal(net), ops.net_contains_or_equals(net)])]);
  },
};

/** `location` / `locations`: assigned to any of the locations or their descendants. */
const locationFilter = assignedLocationFilter({ through: T.prefixLocation, ownerColumn: 'prefix_id', targetColumn: 'location_id' });

/** `vlan_vid`: prefixes whose VLAN has one of the VLAN ids. */
const vlanVidFilter: FilterDef = {
  lookups: new Set(),
  async build({ services }, _lookup, values) {
    const vids = values.map((v) => (/^\d+$/.test(v.trim()) ? storableInteger(v) : Number.NaN));
    if (vids.some(Number.isNaN)) throw new FilterError('Enter a whole number.');
    const vlan = services.registry.get('ipam.vlan');
    return (eb) => eb(col(T.prefix, 'vlan_id'), 'in', eb.selectFrom(vlan.table).select('id').where('vid', 'in', vids));
  },
};

/** `vlan_id`: the VLAN by UUID (the reference's alias of `vlan`). */
const vlanIdFilter: FilterDef = {
  lookups: new Set(),
  async build(_ctx, _lookup, values) {
    const ids = values.map((v) => toUuid(v));
    if (ids.some((id) => !id)) throw new FilterError('Enter a valid UUID.');
    return (eb) => eb(col(T.prefix, 'vlan_id'), 'in', ids as string[]);
  },
};

const hasRir: FilterDef = {
  lookups: new Set(),
  schema: { type: 'boolean' },
  async build(_ctx, _lookup, values) {
    const yes = ['true', 'True', '1'].includes(values[values.length - 1] ?? '');
    return (eb) => eb(col(T.prefix, 'rir_id'), yes ? 'is not' : 'is', null);
  },
};

/** The extra filters of ipam.prefix by parameter name. */
export const PREFIX_FILTERS: Record<string, FilterDef> = {
  prefix: networkFilter(T.prefix, ops),
  network: networkField,
  broadcast: broadcastField,
  within: fixedNetFilter((net) => ops.net_contained(net)),
  within_include: fixedNetFilter((net) => ops.net_contained_or_equal(net)),
  contains: containsFilter,
  ip_version: { lookups: new Set(), build: async (_ctx, _lookup, values) => familyClause(T.prefix, values, { choice: false }) },
  family: { lookups: new Set(), build: async (_ctx, _lookup, values) => familyClause(T.prefix, values, { choice: true }) },
  q: qFilter,
  vrf: vrfFilter({ table: T.prefix, column: 'id' }),
  vrfs: vrfFilter({ table: T.prefix, column: 'id' }),
  present_in_vrf: presentInVrfFilter({ table: T.prefix, column: 'id' }, 'rd'),
  present_in_vrf_id: presentInVrfFilter({ table: T.prefix, column: 'id' }, 'id'),
  location: locationFilter,
  locations: locationFilter,
  vlan_id: vlanIdFilter,
  vlan_vid: vlanVidFilter,
  has_rir: hasRir,
};
