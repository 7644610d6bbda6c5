import { cloudAccount, cloudNetwork, cloudNetworkPrefixAssignment, cloudResourceType, cloudService, cloudServiceNetworkAssignment } from './models/cloud.js';
import type { AppDefinition } from '../../core/registry/registry.js';

/** Cloud: accounts with cloud providers, resource types, networks and services, and their assignments (reference nautobot/cloud). */
export const cloudApp: AppDefinition = {
  label: 'cloud',
  models: [cloudAccount, cloudResourceType, cloudNetwork, cloudNetworkPrefixAssignment, cloudService, cloudServiceNetworkAssignment],
  // The global search's models, as the reference's app config lists them.
  searchable_models: ['cloudaccount', 'cloudnetwork', 'cloudresourcetype', 'cloudservice'],
};
