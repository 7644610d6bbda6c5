import { CONNECTION_ROOT_PATHS } from './cables/endpoints.js';
import { dcimGeneratedModels } from './generated.js';
import { location, locationType } from './models/locations.js';
import type { AppDefinition } from '../../core/registry/registry.js';

/** DCIM: locations and, as they arrive, racks, devices, components and cables. */
export const dcimApp: AppDefinition = {
  label: 'dcim',
  models: [locationType, location, ...dcimGeneratedModels],
  root_paths: [...CONNECTION_ROOT_PATHS],
  // The global search's models, as the reference's app config lists them.
  searchable_models: ['cable', 'controller', 'device', 'devicefamily', 'deviceredundancygroup', 'devicetype', 'location', 'module', 'modulefamily', 'moduletype', 'powerfeed', 'rack', 'rackgroup', 'softwareversion', 'virtualchassis', 'virtualdevicecontext'],
};
