/**
 * Filters of ipam.ipaddress beyond the generated ones (catalogue `filters`, api-behaviour.md
 * section 7 "IPAM", the spec's network lookups on `address`/`host`).
 */
import { sql } from 'kysely';
import { toUuid } from '../../../core/fields/scalar.js';
import { TRUE, col, escapeLike, not, or } from '../../../db/query/sql-helpers.js';
import { FilterError, resolveIds } from '../../../ops/filters/resolve-values.js';
import { T } from '../net.js';
import { searchNetworks } from '../search-networks.js';
import { familyClause, fixedNetFilter, hostOps, networkFilter } from './network.js';
import { presentInVrfFilter, vrfFilter } from './vrf-scope.js';
import type { Clause } from '../../../db/query/sql-helpers.js';
import type { FilterContext, FilterDef } from '../../../ops/filters/filter-set.js';

const ops = hostOps(T.ip);
const ASSIGNMENTS = 'ipam_ipaddresstointerface';

/** `host` exact is the address alone, whatever the mask. */
const hostField = networkFilter(T.ip, { ...ops, exact: (net) => ops.exact(net, 'bare') });

/**
 * `q`: DNS name or description contains the term, or the host lies in the network the term
 * reads as, a partial address widened ("10.1" is 10.1.0.0/16; search-networks.ts), as the
 * reference's `IPAddressQuerySet.string_search`.
 */
const qFilter: FilterDef = {
  lookups: new Set(),
  async build({ services }, _lookup, values) {
    const term = values[values.length - 1]?.trim() ?? '';
    if (term === '') return TRUE;
    const clauses: Clause[] = ['dns_name', 'description'].map((c) => () => services.dialect.ilike(col(T.ip, c), `%${escapeLike(term)}%`) as never);
    return or([...clauses, ...searchNetworks(term).map((net) => ops.net_host_contained(net))]);
  },
};

const namespaceFilter: FilterDef = {
  lookups: new Set(['n']),
  async build({ services, exec }, lookup, values) {
    const ids = await resolveIds(exec, services.registry.get('ipam.namespace'), values);
    const clause: Clause = (eb) => eb(col(T.ip, 'namespace_id'), 'in', ids);
    return lookup === 'n' ? not(clause) : clause;
  },
};

/** Addresses assigned to interfaces matching `where` (device or VM interfaces). */
async function assignedVia(ctx: FilterContext, values: string[], opts: { owner: string; iface: string; column: string; byName: boolean }): Promise<Clause> {
  const owner = ctx.services.registry.get(opts.owner);
  const iface = ctx.services.registry.get(opts.iface);
  let ids: string[];
  if (opts.byName) ids = await resolveIds(ctx.exec, owner, values);
  else {
    ids = values.map((v) => toUuid(v) ?? '');
    if (ids.includes('')) throw new FilterError('Enter a valid UUID.');
  }
  const column = opts.iface === 'dcim.interface' ? 'interface_id' : 'vm_interface_id';
  return (eb) => eb(col(T.ip, 'id'), 'in', eb.selectFrom(ASSIGNMENTS).select('ip_address_id')
    .where(column, 'in', eb.selectFrom(iface.table).select('id').where(opts.column, 'in', ids)));
}

function via(owner: string, iface: string, column: string, byName: boolean): FilterDef {
  return { lookups: new Set(), build: (ctx, _lookup, values) => assignedVia(ctx, values, { owner, iface, column, byName }) };
}

function presence(clause: Clause): FilterDef {
  return {
    lookups: new Set(),
    schema: { type: 'boolean' },
    async build(_ctx, _lookup, values) {
      return ['true', 'True', '1'].includes(values[values.length - 1] ?? '') ? clause : not(clause);
    },
  };
}

/** The extra filters of ipam.ipaddress by parameter name. */
export const IP_FILTERS: Record<string, FilterDef> = {
  address: networkFilter(T.ip, ops),
  host: hostField,
  prefix: fixedNetFilter((net) => ops.net_host_contained(net)),
  ip_version: { lookups: new Set(), build: async (_ctx, _lookup, values) => familyClause(T.ip, values, { choice: false }) },
  family: { lookups: new Set(), build: async (_ctx, _lookup, values) => familyClause(T.ip, values, { choice: true }) },
  namespace: namespaceFilter,
  q: qFilter,
  vrfs: vrfFilter({ table: T.ip, column: 'parent_id' }),
  present_in_vrf: presentInVrfFilter({ table: T.ip, column: 'parent_id' }, 'rd'),
  present_in_vrf_id: presentInVrfFilter({ table: T.ip, column: 'parent_id' }, 'id'),
  device: via('dcim.device', 'dcim.interface', 'device_id', true),
  device_id: via('dcim.device', 'dcim.interface', 'device_id', false),
  virtual_machine: via('virtualization.virtualmachine', 'virtualization.vminterface', 'virtual_machine_id', true),
  virtual_machine_id: via('virtualization.virtualmachine', 'virtualization.vminterface', 'virtual_machine_id', false),
  has_interface_assignments: presence((eb) => eb(col(T.ip, 'id'), 'in', eb.selectFrom(ASSIGNMENTS).select('ip_address_id'))),
  has_nat_inside: presence((eb) => eb(col(T.ip, 'nat_inside_id'), 'is not', null)),
};
