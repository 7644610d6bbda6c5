import { derivedFilters } from '../../shared/derived-filters.js';

/** Every tenant-owned model: `tenant_id` and `tenant_group` (the tenant's group and its subgroups). */
const TENANCY = ['tenant_id', 'tenant_group=tenant__tenant_group'];

/** Filters of the IPAM models beyond their fields (catalogue `filters`), derived from the registry (apps/shared/derived-filters.ts). */
export const IPAM_DERIVED_FILTERS: Record<string, string[]> = {
  'ipam.prefix': TENANCY,
  'ipam.ipaddress': TENANCY,
  'ipam.vlan': TENANCY,
  'ipam.vrf': TENANCY,
  'ipam.routetarget': ['importing_vrfs', 'exporting_vrfs', ...TENANCY],
};

export const ipamDerivedFilters = derivedFilters(IPAM_DERIVED_FILTERS);
