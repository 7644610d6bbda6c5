import type { Catalog } from './catalog.js';
import type { Fixtures } from './fixtures.js';

/** A read scenario: GET requests over `paths` in turn; `list` ones are compared to the floor. */
export type ReadScenario = { name: string; paths: string[]; list: boolean; headers?: Record<string, string> };

/** Request headers that make the service render afresh (its response cache bypassed). */
const UNCACHED = { 'cache-control': 'no-cache' };

/** The depth-0 list page the floor serves byte for byte. */
export const FLOOR_PATH = '/api/dcim/locations/?limit=50';

/** The fixed request mix of issue 7, for the endpoints this service has. */
export function readScenarios(catalog: Catalog, fx: Fixtures, counts: Record<string, number>): { scenarios: ReadScenario[]; notes: string[] } {
  const notes: string[] = [];
  /** An endpoint is measured only when it exists and holds data (an empty page says nothing). */
  const usable = (app: string, path: string) => {
    if (!catalog.has(app, path)) notes.push(`${path} scenarios skipped: no /api/${app}/${path}/ endpoint`);
    else if (!counts[path]) notes.push(`${path} scenarios skipped: the table is empty (see the seed notes)`);
    return catalog.has(app, path) && counts[path] > 0;
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
  return { scenarios: s, notes };
}

/** List endpoints the query guard checks, among those that exist. */
export function guardPaths(catalog: Catalog, counts: Record<string, number>): string[] {
  const wanted = ['dcim/locations', 'dcim/location-types', 'tenancy/tenants', 'tenancy/tenant-groups', 'extras/tags', 'dcim/devices', 'dcim/interfaces', 'ipam/prefixes', 'ipam/ip-addresses'];
  return wanted.filter((p) => catalog.has(...(p.split('/') as [string, string])) && (counts[p.split('/')[1]] ?? 0) > 0).map((p) => `/api/${p}/`);
}
