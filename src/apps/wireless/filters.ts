import { derivedFilters } from '../shared/derived-filters.js';

const RADIO = 'controller_managed_device_group_radio_profile_assignments';
const NETWORK = 'controller_managed_device_group_wireless_network_assignments';

/** Filters of the wireless models beyond their fields (reference nautobot/wireless/filters.py), derived from the registry. */
export const WIRELESS_DERIVED_FILTERS: Record<string, string[]> = {
  'wireless.supporteddatarate': ['radio_profiles', 'has_radio_profiles'],
  'wireless.radioprofile': [`controller_managed_device_groups=${RADIO}.controller_managed_device_group`, `has_controller_managed_device_groups=@has_${RADIO}`],
  // On DCIM models: the reference's DCIM filter sets name radio profiles and wireless networks.
  'dcim.device': ['radio_profiles=controller_managed_device_group__radio_profiles', 'has_radio_profiles=controller_managed_device_group__has_radio_profiles',
    'wireless_networks=controller_managed_device_group__wireless_networks', 'has_wireless_networks=controller_managed_device_group__has_wireless_networks'],
  'dcim.controller': ['wireless_networks=controller_managed_device_groups.wireless_networks'],
  'dcim.controllermanageddevicegroup': ['has_radio_profiles', 'has_wireless_networks'],
  'wireless.wirelessnetwork': [`controller_managed_device_groups=${NETWORK}.controller_managed_device_group`, `has_controller_managed_device_groups=@has_${NETWORK}`, 'tenant_id', 'tenant_group=tenant__tenant_group'],
};

export const wirelessDerivedFilters = derivedFilters(WIRELESS_DERIVED_FILTERS);
