import { controllerManagedDeviceGroupRadioProfileAssignment, controllerManagedDeviceGroupWirelessNetworkAssignment, radioProfile, supportedDataRate, wirelessNetwork } from './models/wireless.js';
import type { AppDefinition } from '../../core/registry/registry.js';

/** Wireless: supported data rates, radio profiles, wireless networks and their controller-managed device group assignments (reference nautobot/wireless). */
export const wirelessApp: AppDefinition = {
  label: 'wireless',
  models: [supportedDataRate, radioProfile, wirelessNetwork, controllerManagedDeviceGroupWirelessNetworkAssignment, controllerManagedDeviceGroupRadioProfileAssignment],
};
