import { derivedFilters } from '../../shared/derived-filters.js';
import { assignedVlanFilter, interfaceKindFilter, ownerIpAddressesFilter } from './interface-filters.js';
import type { AppExtensions } from '../../../ops/extensions.js';

/** Every tenant-owned model: `tenant_id` and `tenant_group` (the tenant's group and its subgroups). */
const TENANCY = ['tenant_id', 'tenant_group=tenant__tenant_group'];

/** An interface: VLAN and address presence. */
const INTERFACE = ['has_tagged_vlans', 'has_ip_addresses'];

/** Filters of the IPAM models (and of the interfaces and their owners about addresses and VLANs) derived from the registry (apps/shared/derived-filters.ts). */
export const IPAM_DERIVED_FILTERS: Record<string, string[]> = {
  'ipam.prefix': TENANCY,
  'ipam.ipaddress': TENANCY,
  'ipam.vlan': TENANCY,
  'ipam.vrf': TENANCY,
  'ipam.routetarget': ['importing_vrfs', 'exporting_vrfs', ...TENANCY],
  'dcim.interface': INTERFACE,
  'virtualization.vminterface': INTERFACE,
  'dcim.device': ['has_ip_addresses=interfaces.has_ip_addresses'],
  'virtualization.virtualmachine': ['has_ip_addresses=interfaces.has_ip_addresses'],
};

/** Filters of interfaces and their owners about assigned addresses and VLANs (apps/ipam/filters/interface-filters.ts). */
const INTERFACE_FILTERS: AppExtensions = {
  'dcim.device': { filters: { ip_addresses: ownerIpAddressesFilter({ iface: 'dcim.interface', ownerFk: 'device', assignmentColumn: 'interface_id' }) } },
  'virtualization.virtualmachine': {
    filters: { ip_addresses: ownerIpAddressesFilter({ iface: 'virtualization.vminterface', ownerFk: 'virtual_machine', assignmentColumn: 'vm_interface_id' }) },
  },
  'dcim.interface': { filters: { vlan_id: assignedVlanFilter('id'), vlan: assignedVlanFilter('vid'), kind: interfaceKindFilter } },
  'virtualization.vminterface': { filters: { vlan_id: assignedVlanFilter('id') } },
};

export const ipamDerivedFilters: AppExtensions[] = [derivedFilters(IPAM_DERIVED_FILTERS), INTERFACE_FILTERS];
