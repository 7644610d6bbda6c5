import { derivedFilters } from '../shared/derived-filters.js';

const TENANCY = ['tenant_id', 'tenant_group=tenant__tenant_group'];

/** Filters of the virtualization models beyond their fields (catalogue `filters`), derived from the registry (apps/shared/derived-filters.ts). */
export const VIRTUALIZATION_DERIVED_FILTERS: Record<string, string[]> = {
  'virtualization.clustertype': ['clusters', 'has_clusters'],
  'virtualization.clustergroup': ['clusters', 'has_clusters'],
  'virtualization.cluster': ['devices', 'has_devices', 'virtual_machines', 'has_virtual_machines', 'cluster_group_id', 'cluster_type_id', ...TENANCY],
  'virtualization.virtualmachine': ['cluster_group=cluster__cluster_group', 'cluster_group_id=cluster__cluster_group', 'cluster_type=cluster__cluster_type',
    'cluster_type_id=cluster__cluster_type', 'cluster_id', 'location=cluster__location', 'platform_id', 'has_primary_ip', 'mac_address=interfaces.mac_address', 'services', 'has_services', 'interfaces', 'has_interfaces',
    'has_software_version', 'has_software_image_files', 'local_config_context_schema_id', ...TENANCY],
  'virtualization.vminterface': ['cluster=virtual_machine__cluster', 'cluster_id=virtual_machine__cluster', 'virtual_machine_id', 'child_interfaces', 'has_child_interfaces',
    'bridged_interfaces', 'has_bridged_interfaces'],
};

export const virtualizationDerivedFilters = derivedFilters(VIRTUALIZATION_DERIVED_FILTERS);
