import { derivedFilters } from '../shared/derived-filters.js';

const RADIO = 'controller_managed_device_group_radio_profile_assignments';
const NETWORK = 'controller_managed_device_group_wireless_network_assignments';

/** Filters of the wireless models beyond their fields (reference nautobot/wireless/filters.py), derived from the registry. */
export const WIRELESS_DERIVED_FILTERS: Record<string, string[]> = {
  'wireless.supporteddatarate': ['radio_profiles', 'has_radio_profiles'],
  'wireless.radioprofile': [`controller_managed_device_groups=${RADIO}.controller_managed_device_group`, `has_controller_managed_device_groups=@has_${RADIO}`],
  'wireless.wirelessnetwork': [`controller_managed_device_groups=${NETWORK}.controller_managed_device_group`, `has_controller_managed_device_groups=@has_${NETWORK}`, 'tenant_id', 'tenant_group=tenant__tenant_group'],
};

export const wirelessDerivedFilters = derivedFilters(WIRELESS_DERIVED_FILTERS);
