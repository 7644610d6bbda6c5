/** clean() rules of VLAN groups, VLANs and VRF-prefix assignments (catalogue ipam.json validation). */
import { containsVid, formatVidRanges, parseVidRanges } from '../vlan-ranges.js';
import type { Rule } from '../../../core/registry/types.js';

/** The range parses as ids/ranges within 1-4094, is stored normalised, and still holds the group's VLANs. */
export const vlanGroupRangeValid: Rule = async ({ row, find }) => {
  const ranges = parseVidRanges(String(row.range ?? ''));
  if (!ranges) return { range: 'Enter VLAN ids or ranges (e.g. 1-10,20) between 1 and 4094.' };
  row.range = formatVidRanges(ranges);
  const outside = (await find('ipam.vlan', { vlan_group_id: row.id })).filter((v) => !containsVid(ranges, Number(v.vid)));
  if (outside.length > 0) return { range: `VLAN group range may not be changed to exclude VLANs already in the group: ${outside.map((v) => String(v.vid)).join(', ')}.` };
};

/** With a group, the VLAN id lies inside the group's range. */
export const vlanVidInGroupRange: Rule = async ({ row, get }) => {
  if (!row.vlan_group_id) return;
  const group = await get('ipam.vlangroup', row.vlan_group_id);
  const ranges = group ? parseVidRanges(String(group.range ?? '')) : null;
  if (ranges && !containsVid(ranges, Number(row.vid))) return { vid: `VLAN ID is not contained in VLAN Group range (${String(group?.range)})` };
};

/** A prefix joins only VRFs of its own namespace (the reference's message names both namespaces). */
export const vrfPrefixSameNamespace: Rule = async ({ row, get }) => {
  const [vrf, prefix] = [await get('ipam.vrf', row.vrf_id), await get('ipam.prefix', row.prefix_id)];
  if (!vrf || !prefix || vrf.namespace_id === prefix.namespace_id) return;
  const [own, theirs] = [await get('ipam.namespace', prefix.namespace_id), await get('ipam.namespace', vrf.namespace_id)];
  return { prefix: `Prefix (namespace ${String(own?.name)}) must be in same namespace as VRF (namespace ${String(theirs?.name)})` };
};
