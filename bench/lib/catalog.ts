import type { ApiClient } from './client.js';

/** Which list endpoints the running service offers, from `/api/` and each app root. */
export type Catalog = { has(app: string, path: string): boolean; paths: string[] };

export async function discover(client: ApiClient): Promise<Catalog> {
  const root = await client.ok<Record<string, string>>('GET', '/api/');
  const paths: string[] = [];
  for (const app of Object.keys(root.body)) {
    if (['status', 'graphql', 'apps', 'plugins'].includes(app)) continue;
    const res = await client.request<Record<string, string>>('GET', `/api/${app}/`);
    if (res.status !== 200 || !res.body) continue;
    for (const p of Object.keys(res.body)) paths.push(`${app}/${p}`);
  }
  const set = new Set(paths);
  return { has: (app, path) => set.has(`${app}/${path}`), paths };
}

/** The object types the seed may use, keyed by `app/path`, for content-type lists. */
export const OBJECT_TYPES: Record<string, string> = {
  'dcim/locations': 'dcim.location',
  'tenancy/tenants': 'tenancy.tenant',
  'dcim/devices': 'dcim.device',
  'dcim/interfaces': 'dcim.interface',
  'dcim/racks': 'dcim.rack',
  'dcim/rack-groups': 'dcim.rackgroup',
  'dcim/cables': 'dcim.cable',
  'ipam/prefixes': 'ipam.prefix',
  'ipam/ip-addresses': 'ipam.ipaddress',
  'ipam/vlans': 'ipam.vlan',
  'ipam/vlan-groups': 'ipam.vlangroup',
  'ipam/vrfs': 'ipam.vrf',
  'ipam/route-targets': 'ipam.routetarget',
  'circuits/providers': 'circuits.provider',
  'circuits/circuits': 'circuits.circuit',
  'circuits/circuit-terminations': 'circuits.circuittermination',
  'virtualization/clusters': 'virtualization.cluster',
  'virtualization/virtual-machines': 'virtualization.virtualmachine',
  'virtualization/interfaces': 'virtualization.vminterface',
};

/** Object types above that carry no tags in the reference (a tag's content types leave them out). */
const UNTAGGED = new Set(['dcim.rackgroup']);

/** Object types of `OBJECT_TYPES` whose endpoints exist, filtered to `wanted` when given. */
export function presentTypes(catalog: Catalog, wanted?: string[]): string[] {
  return Object.entries(OBJECT_TYPES)
    .filter(([key, type]) => catalog.has(...(key.split('/') as [string, string])) && (!wanted || wanted.includes(type)))
    .map(([, type]) => type);
}

/** Object types whose endpoints exist and that carry tags. */
export function taggableTypes(catalog: Catalog): string[] {
  return presentTypes(catalog).filter((t) => !UNTAGGED.has(t));
}

/** Whether every `app/path` endpoint exists. */
export function hasAll(catalog: Catalog, paths: string[]): boolean {
  return paths.every((p) => catalog.has(...(p.split('/') as [string, string])));
}
