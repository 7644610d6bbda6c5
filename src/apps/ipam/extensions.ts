/**
 * What the IPAM app adds to its models beyond their declarations (ops/extensions.ts): CIDR
 * input, the maintained hierarchy, the mirrored assignment fields, read-time values and the
 * network-aware filters.
 */
import { addressText, family, natOutsideList, prefixText } from './computed.js';
import { ipamDerivedFilters } from './filters/derived.js';
import { IP_FILTERS } from './filters/ip-filters.js';
import { PREFIX_FILTERS } from './filters/prefix-filters.js';
import { placePrefixes, releasePrefixes } from './hierarchy.js';
import { defaultToGlobal } from './namespace.js';
import { parseIpInputs } from './ip-input.js';
import { parsePrefixInputs } from './prefix-input.js';
import { followAssignments, singleLocation } from './single-location.js';
import { mirrorThrough } from '../shared/through-links.js';
import { refreshIpVrfs } from './vrf-of-ip.js';
import { inheritFromVrf } from './vrf-assignment-defaults.js';
import type { AppExtensions, ModelExtensions } from '../../ops/extensions.js';
import type { LocationSpec } from './single-location.js';
import type { ThroughLink } from '../shared/through-links.js';

const PREFIX_LOCATIONS: LocationSpec = {
  through: 'ipam.prefixlocationassignment',
  link: { owner: 'ipam.prefix', field: 'locations', ownerFk: 'prefix', targetFk: 'location' },
  noun: 'Prefixes',
};

const VLAN_LOCATIONS: LocationSpec = {
  through: 'ipam.vlanlocationassignment',
  link: { owner: 'ipam.vlan', field: 'locations', ownerFk: 'vlan', targetFk: 'location' },
  noun: 'VLANs',
};

const PREFIX_VRFS: ThroughLink = { owner: 'ipam.prefix', field: 'vrfs', ownerFk: 'prefix', targetFk: 'vrf' };
const VRF_PREFIXES: ThroughLink = { owner: 'ipam.vrf', field: 'prefixes', ownerFk: 'vrf', targetFk: 'prefix' };

const IP_INTERFACE_LINKS: ThroughLink[] = [
  { owner: 'ipam.ipaddress', field: 'interfaces', ownerFk: 'ip_address', targetFk: 'interface' },
  { owner: 'ipam.ipaddress', field: 'vm_interfaces', ownerFk: 'ip_address', targetFk: 'vm_interface' },
  { owner: 'dcim.interface', field: 'ip_addresses', ownerFk: 'interface', targetFk: 'ip_address' },
  { owner: 'virtualization.vminterface', field: 'ip_addresses', ownerFk: 'vm_interface', targetFk: 'ip_address' },
];

/**
 * Every write of a prefix or an IP address queues on one lock (on PostgreSQL; SQLite writers
 * already take turns): parents are computed from what is committed when the lock is granted,
 * so concurrent creates, deletes and allocations cannot leave an address under a deleted prefix
 * or miss a new one (issue 17, defect 6).
 */
const HIERARCHY_LOCK = ['ipam.hierarchy'];

const prefix: ModelExtensions = {
  writeLocks: HIERARCHY_LOCK,
  filters: PREFIX_FILTERS,
  computed: { prefix: prefixText, family },
  parseInput: parsePrefixInputs,
  afterWrite: placePrefixes,
  beforeDelete: releasePrefixes,
};

const ipAddress: ModelExtensions = {
  writeLocks: HIERARCHY_LOCK,
  filters: IP_FILTERS,
  computed: { address: addressText, family, nat_outside_list: natOutsideList },
  parseInput: parseIpInputs,
  afterWrite: ({ exec, plans }) => refreshIpVrfs(exec, { ipIds: plans.map((p) => p.row.id) }),
};

/** A prefix's VRF assignments changed: its addresses' `vrf` follows. */
const vrfPrefixes = mirrorThrough('ipam.vrfprefixassignment', [PREFIX_VRFS, VRF_PREFIXES], async ({ exec, link, links }) => {
  if (link === PREFIX_VRFS) await refreshIpVrfs(exec, { prefixIds: [...links.keys()] });
});

/** Extension tables of the IPAM app, merged per model by ops/extensions.ts. */
export const IPAM_EXTENSIONS: AppExtensions[] = [
  {
    'ipam.prefix': prefix,
    'ipam.ipaddress': ipAddress,
    'ipam.vrfprefixassignment': vrfPrefixes,
    'ipam.prefixlocationassignment': mirrorThrough(PREFIX_LOCATIONS.through, [PREFIX_LOCATIONS.link], followAssignments(PREFIX_LOCATIONS)),
    'ipam.vlanlocationassignment': mirrorThrough(VLAN_LOCATIONS.through, [VLAN_LOCATIONS.link], followAssignments(VLAN_LOCATIONS)),
    'ipam.ipaddresstointerface': mirrorThrough('ipam.ipaddresstointerface', IP_INTERFACE_LINKS),
    'ipam.vlan': singleLocation(VLAN_LOCATIONS),
    'ipam.vrf': { parseInput: defaultToGlobal },
    'ipam.vrfdeviceassignment': { parseInput: inheritFromVrf },
  },
  { 'ipam.prefix': singleLocation(PREFIX_LOCATIONS) },
  ...ipamDerivedFilters,
];
