/**
 * Filters of device and VM interfaces (and their owners) about the IP addresses and VLANs
 * assigned to them (catalogue `filters` of dcim.interface, virtualization.vminterface,
 * dcim.device, virtualization.virtualmachine).
 */
import { sql } from 'kysely';
import { toUuid } from '../../../core/fields/scalar.js';
import { parseIp } from '../../../core/ip/index.js';
import { joinTable } from '../../../db/schema/build-schema.js';
import { col, or } from '../../../db/query/sql-helpers.js';
import { storableInteger } from '../../../ops/filters/integer-range.js';
import { FilterError } from '../../../ops/filters/resolve-values.js';
import { T } from '../net.js';
import { hostOps } from './network.js';
import type { Clause } from '../../../db/query/sql-helpers.js';
import type { FilterDef } from '../../../ops/filters/filter-set.js';

const ASSIGNMENTS = 'ipam_ipaddresstointerface';
const ops = hostOps(T.ip);

/** Interface types by the reference's kinds: virtual ones, wireless ones; physical is neither. */
const VIRTUAL_TYPES = ['virtual', 'bridge', 'lag', 'tunnel'];
const WIRELESS_TYPES = ['ieee802.11a', 'ieee802.11g', 'ieee802.11n', 'ieee802.11ac', 'ieee802.11ad', 'ieee802.11ax', 'ieee802.11ay', 'ieee802.15.1', 'other-wireless'];

/** Addresses given by id or as `address[/mask]` (a bare address is a host route, /32 or /128). */
function ipClause(values: string[]): Clause {
  return or(values.map((value): Clause => {
    const id = toUuid(value);
    if (id) return (eb) => eb(col(T.ip, 'id'), '=', id);
    const parsed = parseIp(value.trim());
    if (!parsed.ok) throw new FilterError(`${value} is not a valid IP address.`);
    return ops.net_equals(parsed.value);
  }));
}

/** `ip_addresses` of a device or VM: any of its interfaces (`iface`, pointing at it by `ownerFk`) carries one of the addresses; unknown addresses match nothing. */
export function ownerIpAddressesFilter(opts: { iface: string; ownerFk: string; assignmentColumn: string }): FilterDef {
  return {
    lookups: new Set(),
    async build({ services, model }, _lookup, values) {
      const where = ipClause(values);
      const iface = services.registry.get(opts.iface);
      const owner = col(iface.table, iface.fieldMap.get(opts.ownerFk)!.column as string);
      return (eb) => eb(col(model.table, 'id'), 'in', eb.selectFrom(iface.table).select(owner.as('owner'))
        .where(col(iface.table, 'id'), 'in', eb.selectFrom(ASSIGNMENTS).select(opts.assignmentColumn)
          .where('ip_address_id', 'in', eb.selectFrom(T.ip).select(col(T.ip, 'id').as('ip')).where(where))));
    },
  };
}

/** Interfaces whose untagged VLAN or one of whose tagged VLANs is one of `vlans`. */
function onVlans(table: string, tagged: string, vlans: (eb: Parameters<Clause>[0]) => any): Clause {
  return or([
    (eb) => eb(col(table, 'untagged_vlan_id'), 'in', vlans(eb)),
    (eb) => eb(col(table, 'id'), 'in', eb.selectFrom(tagged).select('source_id').where('target_id', 'in', vlans(eb))),
  ]);
}

/** `vlan_id` (by VLAN id) or `vlan` (by VID): the VLAN is the interface's untagged VLAN or one of its tagged VLANs. */
export function assignedVlanFilter(by: 'id' | 'vid'): FilterDef {
  return {
    lookups: new Set(),
    async build({ services, model }, _lookup, values) {
      const value = (values[values.length - 1] ?? '').trim();
      if (value === '') return () => sql`1 = 1` as never;
      const tagged = joinTable(model, model.fieldMap.get('tagged_vlans')!);
      if (by === 'id') {
        const id = toUuid(value);
        if (!id) throw new FilterError(`“${value}” is not a valid UUID.`);
        return onVlans(model.table, tagged, () => [id]);
      }
      if (!/^-?\d+$/.test(value)) throw new FilterError('Enter a number.');
      const vlans = services.registry.get('ipam.vlan').table;
      return onVlans(model.table, tagged, (eb) => eb.selectFrom(vlans).select(col(vlans, 'id').as('vlan')).where(col(vlans, 'vid'), '=', storableInteger(value)));
    },
  };
}

/** `kind` of a device interface: physical, virtual or wireless by its type (anything else matches nothing). */
export const interfaceKindFilter: FilterDef = {
  lookups: new Set(),
  async build({ model }, _lookup, values) {
    const type = col(model.table, 'type');
    const kind = (values[values.length - 1] ?? '').trim().toLowerCase();
    if (kind === 'physical') return (eb) => eb(type, 'not in', [...VIRTUAL_TYPES, ...WIRELESS_TYPES]);
    if (kind === 'virtual') return (eb) => eb(type, 'in', VIRTUAL_TYPES);
    if (kind === 'wireless') return (eb) => eb(type, 'in', WIRELESS_TYPES);
    return () => sql`1 = 0` as never;
  },
};
