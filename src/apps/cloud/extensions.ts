import { mirrorThrough } from '../shared/through-links.js';
import { checkExtraConfig } from './rules.js';
import type { AppExtensions } from '../../ops/extensions.js';

/**
 * Cloud behaviour beyond the declarations: the read-only `prefixes` of a cloud network and
 * `cloud_networks` of a cloud service mirror their assignment models; `extra_config` is checked
 * against the resource type's schema.
 */
export const cloudExtensions: AppExtensions = {
  'cloud.cloudnetworkprefixassignment': mirrorThrough('cloud.cloudnetworkprefixassignment', [{ owner: 'cloud.cloudnetwork', field: 'prefixes', ownerFk: 'cloud_network', targetFk: 'prefix' }]),
  'cloud.cloudservicenetworkassignment': mirrorThrough('cloud.cloudservicenetworkassignment', [{ owner: 'cloud.cloudservice', field: 'cloud_networks', ownerFk: 'cloud_service', targetFk: 'cloud_network' }]),
  'cloud.cloudnetwork': { parseInput: checkExtraConfig },
  'cloud.cloudservice': { parseInput: checkExtraConfig },
};
