import { derivedFilters } from '../shared/derived-filters.js';

/** Filters of the cloud models beyond their fields (reference nautobot/cloud/filters.py), derived from the registry. */
export const CLOUD_DERIVED_FILTERS: Record<string, string[]> = {
  'cloud.cloudnetwork': ['cloud_services=cloud_service_network_assignments.cloud_service', 'prefixes=cloud_network_prefix_assignments.prefix'],
  // On other apps' models: the reference's circuits and IPAM filter sets name cloud networks.
  'circuits.circuit': ['cloud_network=terminations.cloud_network'],
  'ipam.prefix': ['cloud_networks=cloud_network_prefix_assignments.cloud_network'],
};

export const cloudDerivedFilters = derivedFilters(CLOUD_DERIVED_FILTERS);
