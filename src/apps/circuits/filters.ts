import { derivedFilters } from '../shared/derived-filters.js';

/** Filters of the circuits models beyond their fields (catalogue `filters`), derived from the registry (apps/shared/derived-filters.ts). */
export const CIRCUITS_DERIVED_FILTERS: Record<string, string[]> = {
  'circuits.provider': ['circuits', 'has_circuits', 'provider_networks', 'has_provider_networks', 'location=circuits.terminations.location'],
  'circuits.providernetwork': ['circuit_terminations=pk:circuit_terminations', 'has_circuit_terminations'],
  'circuits.circuit': ['circuit_terminations=pk:circuit_terminations', 'has_terminations', 'location=terminations.location', 'provider_network=terminations.provider_network', 'tenant_id', 'tenant_group=tenant__tenant_group'],
};

export const circuitsDerivedFilters = derivedFilters(CIRCUITS_DERIVED_FILTERS);
