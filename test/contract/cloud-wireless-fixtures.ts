import { create } from '../helpers/app.js';
import { USED, each, site } from './dcim-fixtures.js';
import type { Ctx } from './dcim-fixtures.js';
import type { Edit, Fixture } from './fixtures.js';
import type { TestApp } from '../helpers/app.js';

const EDITS: Edit[] = ['patched', 'put', 'bulk'];
const KEYS = [...USED, ...EDITS];

/** A cloud provider (manufacturer), an account and a resource type for networks and services. */
async function cloudBase(t: TestApp): Promise<Ctx> {
  const provider = await create(t, '/api/dcim/manufacturers/', { name: 'fx-cloud' });
  const account = await create(t, '/api/cloud/cloud-accounts/', { name: 'fx-account', account_number: '42', provider: provider.id });
  const type = await create(t, '/api/cloud/cloud-resource-types/', { name: 'fx-rt', provider: provider.id, content_types: ['cloud.cloudnetwork', 'cloud.cloudservice'] });
  return { provider: provider.id, account: account.id, type: type.id };
}

/** Cloud networks per `i` (and per edit), with the base. */
async function cloudNetworks(t: TestApp): Promise<Ctx> {
  const base = await cloudBase(t);
  return { ...base, ...await each(t, '/api/cloud/cloud-networks/', KEYS, (k) => ({ name: `net-${k}`, cloud_account: base.account, cloud_resource_type: base.type }), 'net') };
}

/** A controller-managed device group per `i`. */
async function deviceGroups(t: TestApp): Promise<Ctx> {
  const controller = await create(t, '/api/dcim/controllers/', { name: 'fx-controller', location: (await site(t)).location, status: 'Active' });
  return each(t, '/api/dcim/controller-managed-device-groups/', USED, (i) => ({ name: `cmdg-${i}`, controller: controller.id }), 'group');
}

/** Contract fixtures of the cloud and wireless apps. */
export const CLOUD_WIRELESS_FIXTURES: Fixture[] = [
  {
    model: 'cloud.cloudaccount',
    path: '/api/cloud/cloud-accounts/',
    setup: async (t) => ({ provider: (await create(t, '/api/dcim/manufacturers/', { name: 'fx-cloud' })).id }),
    make: (i, ctx) => ({ name: `account-${i}`, account_number: `${i}`, provider: ctx.provider, description: `desc ${i}` }),
    text: 'description',
  },
  {
    model: 'cloud.cloudresourcetype',
    path: '/api/cloud/cloud-resource-types/',
    setup: async (t) => ({ provider: (await create(t, '/api/dcim/manufacturers/', { name: 'fx-cloud' })).id }),
    make: (i, ctx) => ({ name: `type-${i}`, provider: ctx.provider, content_types: ['cloud.cloudnetwork'], description: `desc ${i}` }),
    text: 'description',
  },
  {
    model: 'cloud.cloudnetwork',
    path: '/api/cloud/cloud-networks/',
    setup: cloudBase,
    make: (i, ctx) => ({ name: `network-${i}`, cloud_account: ctx.account, cloud_resource_type: ctx.type, description: `desc ${i}` }),
    text: 'description',
  },
  {
    model: 'cloud.cloudservice',
    path: '/api/cloud/cloud-services/',
    setup: cloudBase,
    make: (i, ctx) => ({ name: `service-${i}`, cloud_account: ctx.account, cloud_resource_type: ctx.type, description: `desc ${i}` }),
    text: 'description',
  },
  {
    model: 'cloud.cloudnetworkprefixassignment',
    path: '/api/cloud/cloud-network-prefix-assignments/',
    setup: async (t) => {
      const nets = await cloudNetworks(t);
      return { ...nets, ...await each(t, '/api/ipam/prefixes/', USED, (i) => ({ prefix: `10.${i}.0.0/16`, status: 'Active' }), 'prefix') };
    },
    make: (i, ctx) => ({ cloud_network: ctx[`net${i}`], prefix: ctx[`prefix${i}`] }),
    text: 'cloud_network',
    edit: (tag, ctx) => ctx[`net${tag}`],
  },
  {
    model: 'cloud.cloudservicenetworkassignment',
    path: '/api/cloud/cloud-service-network-assignments/',
    setup: async (t) => {
      const nets = await cloudNetworks(t);
      return { ...nets, ...await each(t, '/api/cloud/cloud-services/', USED, (i) => ({ name: `svc-${i}`, cloud_resource_type: nets.type }), 'svc') };
    },
    make: (i, ctx) => ({ cloud_network: ctx[`net${i}`], cloud_service: ctx[`svc${i}`] }),
    text: 'cloud_network',
    edit: (tag, ctx) => ctx[`net${tag}`],
  },
  {
    model: 'wireless.supporteddatarate',
    path: '/api/wireless/supported-data-rates/',
    make: (i) => ({ standard: '802.11ax', rate: 1000 + i, mcs_index: i }),
    text: 'mcs_index',
    edit: (tag) => 100 * (EDITS.indexOf(tag) + 1),
  },
  {
    model: 'wireless.radioprofile',
    path: '/api/wireless/radio-profiles/',
    make: (i) => ({ name: `profile-${i}`, regulatory_domain: 'US', frequency: '5GHz', channel_width: [20, 40], allowed_channel_list: [36, 40 + i], tx_power_min: i }),
    text: 'tx_power_min',
    edit: (tag) => 100 * (EDITS.indexOf(tag) + 1),
  },
  {
    model: 'wireless.wirelessnetwork',
    path: '/api/wireless/wireless-networks/',
    make: (i) => ({ name: `wlan-${i}`, ssid: `ssid-${i}`, mode: 'Central', authentication: 'WPA2 Personal', description: `desc ${i}` }),
    text: 'description',
  },
  {
    model: 'wireless.controllermanageddevicegroupwirelessnetworkassignment',
    path: '/api/wireless/controller-managed-device-group-wireless-network-assignments/',
    setup: async (t) => ({ ...await deviceGroups(t), ...await each(t, '/api/wireless/wireless-networks/', KEYS, (k) => ({ name: `wlan-${k}`, ssid: `s-${k}`, mode: 'Central', authentication: 'Open' }), 'wlan') }),
    make: (i, ctx) => ({ controller_managed_device_group: ctx[`group${i}`], wireless_network: ctx[`wlan${i}`] }),
    text: 'wireless_network',
    edit: (tag, ctx) => ctx[`wlan${tag}`],
  },
  {
    model: 'wireless.controllermanageddevicegroupradioprofileassignment',
    path: '/api/wireless/controller-managed-device-group-radio-profile-assignments/',
    setup: async (t) => ({ ...await deviceGroups(t), ...await each(t, '/api/wireless/radio-profiles/', KEYS, (k) => ({ name: `rp-${k}`, regulatory_domain: 'US' }), 'rp') }),
    make: (i, ctx) => ({ controller_managed_device_group: ctx[`group${i}`], radio_profile: ctx[`rp${i}`] }),
    text: 'radio_profile',
    edit: (tag, ctx) => ctx[`rp${tag}`],
  },
];
