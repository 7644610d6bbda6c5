/**
 * Read-only to-many fields of DCIM, extras and users models backed by an assignment model
 * (through-links.ts keeps them in step), and the two sides of the team-contact relation.
 * A `targetFk` of `id` lists the assignments themselves, as the reference does for
 * secrets-group `secrets`, dynamic-group `children` and interface-redundancy-group `interfaces`.
 */
import { mirrorThrough } from './through-links.js';
import { mirrorReverse } from './reverse-links.js';
import { derivedFilters } from './derived-filters.js';
import type { AppExtensions } from '../../ops/extensions.js';

const VRF_ASSIGNMENT = 'ipam.vrfdeviceassignment';

export const mirroredFieldExtensions: AppExtensions[] = [
  {
    'dcim.interfaceredundancygroupassociation': mirrorThrough('dcim.interfaceredundancygroupassociation', [{ owner: 'dcim.interfaceredundancygroup', field: 'interfaces', ownerFk: 'interface_redundancy_group', targetFk: 'id' }]),
    'dcim.interfacevdcassignment': mirrorThrough('dcim.interfacevdcassignment', [{ owner: 'dcim.virtualdevicecontext', field: 'interfaces', ownerFk: 'virtual_device_context', targetFk: 'interface' }]),
    'dcim.devicetypetosoftwareimagefile': mirrorThrough('dcim.devicetypetosoftwareimagefile', [{ owner: 'dcim.devicetype', field: 'software_image_files', ownerFk: 'device_type', targetFk: 'software_image_file' }]),
    'extras.secretsgroupassociation': mirrorThrough('extras.secretsgroupassociation', [{ owner: 'extras.secretsgroup', field: 'secrets', ownerFk: 'secrets_group', targetFk: 'id' }]),
    'extras.dynamicgroupmembership': mirrorThrough('extras.dynamicgroupmembership', [{ owner: 'extras.dynamicgroup', field: 'children', ownerFk: 'parent_group', targetFk: 'id' }]),
    'extras.usersavedviewassociation': mirrorThrough('extras.usersavedviewassociation', [{ owner: 'users.user', field: 'default_saved_views', ownerFk: 'user', targetFk: 'saved_view' }]),
    [VRF_ASSIGNMENT]: mirrorThrough(VRF_ASSIGNMENT, [
      { owner: 'ipam.vrf', field: 'devices', ownerFk: 'vrf', targetFk: 'device' },
      { owner: 'ipam.vrf', field: 'virtual_machines', ownerFk: 'vrf', targetFk: 'virtual_machine' },
      { owner: 'ipam.vrf', field: 'virtual_device_contexts', ownerFk: 'vrf', targetFk: 'virtual_device_context' },
    ]),
  },
  mirrorReverse({ model: 'extras.team', field: 'contacts' }, { model: 'extras.contact', field: 'teams' }),
  // Fields listing assignments filter by the assigned objects, as the reference's filter sets.
  derivedFilters({
    'extras.secretsgroup': ['secrets=secrets_group_associations.secret'],
    'dcim.interfaceredundancygroup': ['interfaces=interface_redundancy_group_associations.interface'],
  }),
];
