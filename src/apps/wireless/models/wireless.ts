import { defineModel, f } from '../../../core/registry/define-model.js';
import { RadioProfileFrequencyChoices, RadioProfileRegulatoryDomainChoices, SupportedDataRateStandardChoices, WirelessNetworkAuthenticationChoices, WirelessNetworkModeChoices } from '../choices.js';
import { channelWidthsAreChoices, channelsAreIntegers } from '../rules.js';
import { ASSIGNMENT_FEATURES, assignmentDisplay, assignmentKeys } from '../../shared/assignment.js';

/** A column value as display text; null and undefined become ''. */
const text = (value: unknown): string => (value === null || value === undefined ? '' : String(value));

const PRIMARY_FEATURES = ['graphql', 'dynamic_groups', 'contacts', 'metadata', 'export_templates', 'webhooks', 'custom_links'];

/** Supported data rate: a rate of a wireless standard that an access point radio can use. */
export const supportedDataRate = defineModel({
  app: 'wireless', model: 'supporteddatarate', verbose_name: 'supported data rate', verbose_name_plural: 'supported data rates', path: 'supported-data-rates',
  base: 'primary',
  features: PRIMARY_FEATURES,
  fields: {
    standard: f.choice(SupportedDataRateStandardChoices, { required: true, max_length: 255 }),
    rate: f.positiveInteger({ required: true, max_value: 2147483647, label: 'Rate (Kbps)' }),
    mcs_index: f.integer({ nullable: true, min_value: -2147483648, max_value: 2147483647, label: 'Modulation and Coding Scheme (MCS) Index', help_text: 'The Modulation and Coding Scheme (MCS) index is a value used in wireless communications to define the modulation type, coding rate, and number of spatial streams used in a transmission.' }),
  },
  natural_key: ['standard', 'rate'],
  unique_together: [['standard', 'rate']],
  ordering: ['standard', 'rate'],
  display: (row) => `${text(row.standard)}: ${text(row.rate)} Kbps`,
  search: [{ path: 'rate', lookup: 'exact', term: 'int' }, 'standard', { path: 'mcs_index', lookup: 'exact', term: 'int' }],
});

/** Radio profile: settings applied to access point radios (frequency, power, channels, data rates). */
export const radioProfile = defineModel({
  app: 'wireless', model: 'radioprofile', verbose_name: 'radio profile', verbose_name_plural: 'radio profiles', path: 'radio-profiles',
  base: 'primary',
  features: PRIMARY_FEATURES,
  fields: {
    channel_width: f.json({ nullable: true, options_type: 'list' }),
    allowed_channel_list: f.json({ nullable: true, options_type: 'list', help_text: 'Comma-separated list of allowed channel numbers for this radio profile.' }),
    name: f.string({ max_length: 255, required: true, unique: true }),
    frequency: f.choice(RadioProfileFrequencyChoices, { default: '', max_length: 255 }),
    tx_power_min: f.integer({ nullable: true, min_value: -2147483648, max_value: 2147483647, label: 'Transmit Power Minimum' }),
    tx_power_max: f.integer({ nullable: true, min_value: -2147483648, max_value: 2147483647, label: 'Transmit Power Maximum' }),
    regulatory_domain: f.choice(RadioProfileRegulatoryDomainChoices, { required: true, max_length: 255 }),
    rx_power_min: f.integer({ nullable: true, min_value: -2147483648, max_value: 2147483647, label: 'Receive Power Minimum' }),
    supported_data_rates: f.m2m('wireless.supporteddatarate', { related_name: 'radio_profiles' }),
  },
  natural_key: ['name'],
  ordering: ['name'],
  display: 'name',
  search: ['name', 'regulatory_domain', { path: 'frequency', lookup: 'exact' }],
  rules: [channelWidthsAreChoices, channelsAreIntegers],
});

/** Wireless network: a network (SSID) an access point broadcasts. */
export const wirelessNetwork = defineModel({
  app: 'wireless', model: 'wirelessnetwork', verbose_name: 'wireless network', verbose_name_plural: 'wireless networks', path: 'wireless-networks',
  base: 'primary',
  features: PRIMARY_FEATURES,
  fields: {
    name: f.string({ max_length: 255, required: true, unique: true }),
    description: f.string({ max_length: 255, default: '' }),
    ssid: f.string({ max_length: 255, required: true, label: 'SSID' }),
    mode: f.choice(WirelessNetworkModeChoices, { required: true, max_length: 255 }),
    enabled: f.boolean({ default: true }),
    authentication: f.choice(WirelessNetworkAuthenticationChoices, { required: true, max_length: 255 }),
    hidden: f.boolean({ default: false }),
    secrets_group: f.fk('extras.secretsgroup', { nullable: true, related_name: 'wireless_networks' }),
    tenant: f.fk('tenancy.tenant', { nullable: true, related_name: 'wireless_networks' }),
  },
  natural_key: ['name'],
  ordering: ['name'],
  display: 'name',
  search: ['name', 'description', 'ssid'],
});

/** Controller-managed device group wireless network assignment: a wireless network served by a device group, optionally on a VLAN. */
export const controllerManagedDeviceGroupWirelessNetworkAssignment = defineModel({
  app: 'wireless', model: 'controllermanageddevicegroupwirelessnetworkassignment', verbose_name: 'controller managed device group wireless network assignment', verbose_name_plural: 'controller managed device group wireless network assignments', path: 'controller-managed-device-group-wireless-network-assignments',
  base: 'base',
  features: ASSIGNMENT_FEATURES,
  fields: {
    controller_managed_device_group: f.fk('dcim.controllermanageddevicegroup', { required: true, on_delete: 'CASCADE', related_name: 'wireless_network_assignments' }),
    wireless_network: f.fk('wireless.wirelessnetwork', { required: true, on_delete: 'CASCADE', related_name: 'controller_managed_device_group_assignments' }),
    vlan: f.fk('ipam.vlan', { nullable: true, related_name: 'controller_managed_device_group_wireless_network_assignments' }),
  },
  ...assignmentKeys('controller_managed_device_group', 'wireless_network'),
  display: assignmentDisplay(['controller_managed_device_group', 'dcim.controllermanageddevicegroup'], ['wireless_network', 'wireless.wirelessnetwork']),
  search: ['controller_managed_device_group__name', 'wireless_network__name'],
});

/** Controller-managed device group radio profile assignment: a radio profile a device group's access points use. */
export const controllerManagedDeviceGroupRadioProfileAssignment = defineModel({
  app: 'wireless', model: 'controllermanageddevicegroupradioprofileassignment', verbose_name: 'controller managed device group radio profile assignment', verbose_name_plural: 'controller managed device group radio profile assignments', path: 'controller-managed-device-group-radio-profile-assignments',
  base: 'base',
  features: ASSIGNMENT_FEATURES,
  fields: {
    controller_managed_device_group: f.fk('dcim.controllermanageddevicegroup', { required: true, on_delete: 'CASCADE', related_name: 'radio_profile_assignments' }),
    radio_profile: f.fk('wireless.radioprofile', { required: true, on_delete: 'CASCADE', related_name: 'controller_managed_device_group_assignments' }),
  },
  ...assignmentKeys('controller_managed_device_group', 'radio_profile'),
  display: assignmentDisplay(['controller_managed_device_group', 'dcim.controllermanageddevicegroup'], ['radio_profile', 'wireless.radioprofile']),
  search: ['controller_managed_device_group__name', 'radio_profile__name'],
});
