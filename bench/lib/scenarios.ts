import type { Catalog } from './catalog.js';
import type { Fixtures } from './fixtures.js';

/**
 * A read scenario: GET requests over `paths` in turn (a POST of `post`'s JSON body for a query
 * endpoint such as GraphQL's); `list` ones are compared to the floor.
 */
export type ReadScenario = { name: string; paths: string[]; list: boolean; headers?: Record<string, string>; post?: string };

/** The GraphQL scenario's query: 50 devices with their interfaces' addresses, location, platform and tags. */
export const GRAPHQL_DEVICES = '{ devices(limit: 50) { name location { name } platform { name network_driver } tags { name } interfaces { name ip_addresses { address } } } }';

/** Its REST counterpart: the same 50 devices' page at depth 2 (location, platform, tags and more nested). */
export const REST_DEVICES_DEPTH_2 = '/api/dcim/devices/?limit=50&depth=2';

/** Request headers that make the service render afresh (its response cache bypassed). */
const UNCACHED = { 'cache-control': 'no-cache' };

/** The depth-0 list page the floor serves byte for byte. */
export const FLOOR_PATH = '/api/dcim/locations/?limit=50';

/** The fixed request mix of issue 7, for the endpoints this service has. */
export function readScenarios(catalog: Catalog, fx: Fixtures, counts: Record<string, number>): { scenarios: ReadScenario[]; notes: string[] } {
  const notes: string[] = [];
  /** An endpoint is measured only when it exists and holds data (an empty page says nothing). */
  const usable = (app: string, path: string) => {
    const key = countKey(`${app}/${path}`);
    if (!catalog.has(app, path)) notes.push(`${key} scenarios skipped: no /api/${app}/${path}/ endpoint`);
    else if (!counts[key]) notes.push(`${key} scenarios skipped: the table is empty (see the seed notes)`);
    return catalog.has(app, path) && counts[key] > 0;
  };
  const s: ReadScenario[] = [
    { name: 'locations list, limit 50, depth 0', paths: [FLOOR_PATH], list: true },
    { name: 'locations list, limit 50, depth 1', paths: ['/api/dcim/locations/?limit=50&depth=1'], list: true },
    { name: 'locations list, limit 50, depth 2', paths: ['/api/dcim/locations/?limit=50&depth=2'], list: true },
  ];
  if (fx.locationType) s.push({ name: 'locations filtered by location_type (FK)', paths: [`/api/dcim/locations/?limit=50&location_type=${fx.locationType}`], list: true });
  if (fx.busyTenant) s.push({ name: 'locations filtered by tenant (FK)', paths: [`/api/dcim/locations/?limit=50&tenant=${fx.busyTenant}`], list: true });
  s.push({ name: 'locations q search', paths: ['/api/dcim/locations/?limit=50&q=frankfurt'], list: true });
  s.push({ name: 'location detail GET', paths: fx.locationIds.map((id) => `/api/dcim/locations/${id}/`), list: false });
  s.push({ name: 'locations list, limit 50, depth 0, uncached', paths: [FLOOR_PATH], list: true, headers: UNCACHED });
  s.push({ name: 'locations list, limit 50, depth 1, uncached', paths: ['/api/dcim/locations/?limit=50&depth=1'], list: true, headers: UNCACHED });
  s.push({ name: 'location detail GET, uncached', paths: fx.locationIds.map((id) => `/api/dcim/locations/${id}/`), list: false, headers: UNCACHED });
  s.push({ name: 'tenants list, limit 50, depth 1', paths: ['/api/tenancy/tenants/?limit=50&depth=1'], list: true });
  if (usable('dcim', 'devices')) {
    s.push({ name: 'devices list, limit 50, depth 0', paths: ['/api/dcim/devices/?limit=50'], list: true });
    s.push({ name: 'devices list, limit 50, depth 1', paths: ['/api/dcim/devices/?limit=50&depth=1'], list: true });
    s.push({ name: 'devices list, limit 50, depth 2, uncached', paths: [REST_DEVICES_DEPTH_2], list: true, headers: UNCACHED });
    s.push({ name: 'GraphQL: 50 devices with interfaces, IP addresses, location, platform, tags', paths: ['/api/graphql/'], list: true, post: JSON.stringify({ query: GRAPHQL_DEVICES }) });
  }
  if (catalog.has('dcim', 'interfaces') && counts.interfaces > 0) s.push({ name: 'interfaces list, limit 50, depth 0', paths: ['/api/dcim/interfaces/?limit=50'], list: true });
  if (usable('dcim', 'interfaces') && fx.deviceId) s.push({ name: 'interfaces filtered by device (FK)', paths: [`/api/dcim/interfaces/?limit=50&device=${fx.deviceId}`], list: true });
  if (usable('ipam', 'prefixes')) {
    s.push({ name: 'prefixes list, limit 50, depth 0', paths: ['/api/ipam/prefixes/?limit=50'], list: true });
    if (fx.prefix16) s.push({ name: 'prefixes net_contains', paths: [`/api/ipam/prefixes/?limit=50&prefix__net_contains=${fx.prefix16.replace(/\.0\.0\/16$/, '.7.9')}`], list: true });
  }
  if (usable('ipam', 'ip-addresses')) {
    s.push({ name: 'IP addresses list, limit 50, depth 0', paths: ['/api/ipam/ip-addresses/?limit=50'], list: true });
    if (fx.prefix16) s.push({ name: 'IP addresses net_host_contained', paths: [`/api/ipam/ip-addresses/?limit=50&address__net_host_contained=${fx.prefix16}`], list: true });
    if (fx.prefixWithIps) s.push({ name: 'IP addresses filtered by parent', paths: [`/api/ipam/ip-addresses/?limit=50&parent=${fx.prefixWithIps}`], list: true });
  }
  s.push(...modelScenarios(usable, fx));
  return { scenarios: s, notes };
}

/**
 * Reads of the models added to the data set after the first request mix (racks, VLANs,
 * circuits, cables, VMs, IP assignments). They render afresh (uncached), so a slow path in
 * any of them shows in req/s and latency on both databases, not only in SQLite's CPU ms.
 */
function modelScenarios(usable: (app: string, path: string) => boolean, fx: Fixtures): ReadScenario[] {
  const s: [string, string][] = [];
  /** Issue 22's lists, each at depth 0 and 1 (the locations' pages are in the main mix). */
  const both = (label: string, app: string, path: string) => {
    s.push([`${label} list, limit 50, depth 0`, `/api/${app}/${path}/?limit=50`]);
    s.push([`${label} list, limit 50, depth 1`, `/api/${app}/${path}/?limit=50&depth=1`]);
  };
  if (usable('dcim', 'interfaces')) both('interfaces', 'dcim', 'interfaces');
  if (usable('dcim', 'devices')) both('devices', 'dcim', 'devices');
  if (usable('dcim', 'racks')) {
    both('racks', 'dcim', 'racks');
    if (fx.rackId && usable('dcim', 'devices')) s.push(['devices filtered by rack (FK)', `/api/dcim/devices/?limit=50&rack=${fx.rackId}`]);
  }
  if (usable('ipam', 'vlans')) s.push(['VLANs list, limit 50, depth 1', '/api/ipam/vlans/?limit=50&depth=1']);
  if (usable('ipam', 'vrfs')) s.push(['VRFs list, limit 50, depth 1', '/api/ipam/vrfs/?limit=50&depth=1']);
  if (usable('circuits', 'circuits')) s.push(['circuits list, limit 50, depth 1', '/api/circuits/circuits/?limit=50&depth=1']);
  if (usable('dcim', 'cables')) {
    both('cables', 'dcim', 'cables');
    if (fx.deviceName) s.push(['cables filtered by device', `/api/dcim/cables/?limit=50&device=${encodeURIComponent(fx.deviceName)}`]);
  }
  if (usable('virtualization', 'virtual-machines')) both('virtual machines', 'virtualization', 'virtual-machines');
  if (usable('ipam', 'ip-address-to-interface')) {
    if (fx.interfaceWithIp) s.push(['IP addresses filtered by interface', `/api/ipam/ip-addresses/?limit=50&interfaces=${fx.interfaceWithIp}`]);
    if (fx.deviceName) s.push(['IP addresses filtered by device', `/api/ipam/ip-addresses/?limit=50&device=${encodeURIComponent(fx.deviceName)}`]);
  }
  return s.map(([name, path]) => ({ name: `${name}, uncached`, paths: [path], list: true, headers: UNCACHED }));
}

/** The lists whose row counts the report gives (and the scenarios and the guard consult), as `app/path`. */
export const DATASET_LISTS = [
  'dcim/locations', 'dcim/location-types', 'tenancy/tenants', 'tenancy/tenant-groups', 'extras/tags', 'dcim/devices', 'dcim/interfaces', 'ipam/prefixes', 'ipam/ip-addresses',
  'dcim/racks', 'dcim/rack-groups', 'dcim/platforms', 'dcim/cables', 'ipam/rirs', 'ipam/route-targets', 'ipam/vrfs', 'ipam/vlan-groups', 'ipam/vlans',
  'ipam/ip-address-to-interface', 'circuits/providers', 'circuits/circuit-types', 'circuits/circuits', 'circuits/circuit-terminations',
  'virtualization/cluster-types', 'virtualization/cluster-groups', 'virtualization/clusters', 'virtualization/virtual-machines', 'virtualization/interfaces',
];

/** The key of a list in the counts: its path segment, except VM interfaces (`interfaces` is the device interfaces' key). */
export function countKey(appPath: string): string {
  return appPath === 'virtualization/interfaces' ? 'vm-interfaces' : appPath.split('/')[1];
}

/** List endpoints the query guard checks: those of the data set that exist and hold rows. */
export function guardPaths(catalog: Catalog, counts: Record<string, number>): string[] {
  return DATASET_LISTS.filter((p) => catalog.has(...(p.split('/') as [string, string])) && (counts[countKey(p)] ?? 0) > 0).map((p) => `/api/${p}/`);
}
