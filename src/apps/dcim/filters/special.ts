import { deviceWithCommonVcFilter } from './interface-filters.js';
import { childLocationTypeFilter } from './location-filters.js';
import { compatibleWithModuleBayFilter, moduleBayFamiliesFilter, moduleDeviceFilter } from './module-filters.js';
import type { AppExtensions } from '../../../ops/extensions.js';

/** Filters of the dcim models with their own semantics, none derivable from the registry (catalogue `filters`). */
export const DCIM_SPECIAL_FILTERS: AppExtensions = {
  'dcim.location': { filters: { child_location_type: childLocationTypeFilter } },
  'dcim.interface': { filters: { device_with_common_vc: deviceWithCommonVcFilter } },
  'dcim.module': { filters: { device: moduleDeviceFilter, compatible_with_module_bay: compatibleWithModuleBayFilter } },
  'dcim.moduletype': { filters: { compatible_with_module_bay: compatibleWithModuleBayFilter } },
  'dcim.modulefamily': { filters: { module_bay_id: moduleBayFamiliesFilter } },
};
