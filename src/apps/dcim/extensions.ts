import { cableExtensions } from './cables/extensions.js';
import { controllerExtensions } from './extensions/controllers.js';
import { dcimDerivedFilters } from './filters/derived.js';
import { deviceExtensions } from './extensions/devices.js';
import { locationMoveExtensions } from './extensions/location-moves.js';
import { locationTypeExtensions } from './extensions/location-types.js';
import { mergeExtensions } from './extensions/merge.js';
import { moduleExtensions } from './extensions/modules.js';
import { networkDriverExtensions } from './extensions/network-drivers.js';
import { primaryIpExtensions } from './extensions/primary-ip.js';
import { rackReservationExtensions } from './extensions/rack-reservations.js';
import { softwareExtensions } from './extensions/software.js';
import { virtualChassisExtensions } from './extensions/virtual-chassis.js';
import { vlanExtensions } from './extensions/vlans.js';
import type { AppExtensions } from '../../ops/extensions.js';

/** DCIM behaviour beyond the declarations (rules needing the whole batch, component instantiation, linked updates). */
export const dcimExtensions: AppExtensions = mergeExtensions([
  locationTypeExtensions,
  locationMoveExtensions,
  deviceExtensions,
  moduleExtensions,
  virtualChassisExtensions,
  primaryIpExtensions,
  rackReservationExtensions,
  vlanExtensions,
  controllerExtensions,
  softwareExtensions,
  networkDriverExtensions,
  cableExtensions,
  dcimDerivedFilters,
]);
