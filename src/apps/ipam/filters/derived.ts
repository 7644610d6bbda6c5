import { derivedFilters } from '../../shared/derived-filters.js';
import { T } from '../net.js';
import { assignedLocationFilter, assignedObjectFilter, assignedPrefixFilter, availableOnDeviceFilter } from './assignment-filters.js';
import { assignedVlanFilter, interfaceKindFilter, ownerIpAddressesFilter } from './interface-filters.js';
import { PREFIX_FILTERS } from './prefix-filters.js';
import type { Assignment } from './assignment-filters.js';
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

const VLAN_LOCATIONS: Assignment = { through: 'ipam_vlanlocationassignment', ownerColumn: 'vlan_id', targetColumn: 'location_id' };
const VRF_DEVICES: Assignment = { through: 'ipam_vrfdeviceassignment', ownerColumn: 'vrf_id', targetColumn: 'device_id' };
const VRF_PREFIXES: Assignment = { through: T.vrfPrefix, ownerColumn: 'vrf_id', targetColumn: 'prefix_id' };

/** Filters of VLANs and VRFs through their assignment models (apps/ipam/filters/assignment-filters.ts). */
const ASSIGNMENT_FILTERS: AppExtensions = {
  'ipam.vlan': {
    filters: { location: assignedLocationFilter(VLAN_LOCATIONS), locations: assignedLocationFilter(VLAN_LOCATIONS), available_on_device: availableOnDeviceFilter(VLAN_LOCATIONS) },
  },
  'ipam.vrf': { filters: { device: assignedObjectFilter({ ...VRF_DEVICES, target: 'dcim.device' }), prefix: assignedPrefixFilter(VRF_PREFIXES, PREFIX_FILTERS.prefix) } },
};

export const ipamDerivedFilters: AppExtensions[] = [derivedFilters(IPAM_DERIVED_FILTERS), INTERFACE_FILTERS, ASSIGNMENT_FILTERS];
