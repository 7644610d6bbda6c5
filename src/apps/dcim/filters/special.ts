import { modularComponentDeviceFilter } from './component-filters.js';
import { deviceWithCommonVcFilter, interfaceDeviceFilter, interfaceDeviceIdFilter } from './interface-filters.js';
import { childLocationTypeFilter } from './location-filters.js';
import { compatibleWithModuleBayFilter, moduleBayFamiliesFilter, moduleDeviceFilter } from './module-filters.js';
import type { AppExtensions } from '../../../ops/extensions.js';

/** Filters of the dcim models with their own semantics, none derivable from the registry (catalogue `filters`). */
export const DCIM_SPECIAL_FILTERS: AppExtensions = {
  'dcim.location': { filters: { child_location_type: childLocationTypeFilter } },
  'dcim.interface': { filters: { device: interfaceDeviceFilter, device_id: interfaceDeviceIdFilter, device_with_common_vc: deviceWithCommonVcFilter } },
  'dcim.consoleport': { filters: { device: modularComponentDeviceFilter } },
  'dcim.consoleserverport': { filters: { device: modularComponentDeviceFilter } },
  'dcim.powerport': { filters: { device: modularComponentDeviceFilter } },
  'dcim.poweroutlet': { filters: { device: modularComponentDeviceFilter } },
  'dcim.frontport': { filters: { device: modularComponentDeviceFilter } },
  'dcim.rearport': { filters: { device: modularComponentDeviceFilter } },
  'dcim.module': { filters: { device: moduleDeviceFilter, compatible_with_module_bay: compatibleWithModuleBayFilter } },
  'dcim.moduletype': { filters: { compatible_with_module_bay: compatibleWithModuleBayFilter } },
  'dcim.modulefamily': { filters: { module_bay_id: moduleBayFamiliesFilter } },
};
