import { derivedFilters } from '../shared/derived-filters.js';

/** Filters of the cloud models beyond their fields (reference nautobot/cloud/filters.py), derived from the registry. */
export const CLOUD_DERIVED_FILTERS: Record<string, string[]> = {
  'cloud.cloudnetwork': ['cloud_services=cloud_service_network_assignments.cloud_service', 'prefixes=cloud_network_prefix_assignments.prefix'],
};

export const cloudDerivedFilters = derivedFilters(CLOUD_DERIVED_FILTERS);
