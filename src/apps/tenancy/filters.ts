import { derivedFilters } from '../shared/derived-filters.js';

const TENANT_OWNED = ['circuits', 'clusters', 'devices', 'ip_addresses', 'locations', 'prefixes', 'rack_reservations', 'racks', 'route_targets',
  'virtual_machines', 'vlans', 'vrfs'];

/** Filters of the tenancy models beyond their fields (catalogue `filters`): the objects pointing at them, derived from the registry (apps/shared/derived-filters.ts). */
export const TENANCY_DERIVED_FILTERS: Record<string, string[]> = {
  'tenancy.tenantgroup': ['children', 'has_children', 'tenants', 'has_tenants'],
  'tenancy.tenant': TENANT_OWNED.flatMap((name) => [name, `has_${name}`]),
};

export const tenancyDerivedFilters = derivedFilters(TENANCY_DERIVED_FILTERS);
