import { mirrorThrough } from '../shared/through-links.js';
import type { AppExtensions } from '../../ops/extensions.js';

/** The read-only `radio_profiles` and `wireless_networks` of a controller-managed device group mirror their assignment models. */
export const wirelessExtensions: AppExtensions = {
  'wireless.controllermanageddevicegroupradioprofileassignment': mirrorThrough('wireless.controllermanageddevicegroupradioprofileassignment', [{ owner: 'dcim.controllermanageddevicegroup', field: 'radio_profiles', ownerFk: 'controller_managed_device_group', targetFk: 'radio_profile' }]),
  'wireless.controllermanageddevicegroupwirelessnetworkassignment': mirrorThrough('wireless.controllermanageddevicegroupwirelessnetworkassignment', [{ owner: 'dcim.controllermanageddevicegroup', field: 'wireless_networks', ownerFk: 'controller_managed_device_group', targetFk: 'wireless_network' }]),
};
