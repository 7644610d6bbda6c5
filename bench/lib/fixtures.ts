import type { ApiClient } from './client.js';
import type { Catalog } from './catalog.js';

/** Ids and values the scenarios point at, read from the seeded data. */
export type Fixtures = {
  locationIds: string[];
  /** The Room location type and the Building locations that may hold rooms (for bulk writes). */
  roomType: string | null;
  buildingIds: string[];
  locationType: string | null;
  /** The tenant that owns the most locations (a selective foreign-key filter). */
  busyTenant: string | null;
  tagIds: string[];
  activeLocationStatus: string | null;
  deviceId: string | null;
  deviceName: string | null;
  prefix16: string | null;
  prefixWithIps: string | null;
  /** A rack with devices mounted in it. */
  rackId: string | null;
  /** A device interface with an IP address assigned. */
  interfaceWithIp: string | null;
};

type Obj = { id: string; name?: string; prefix?: string; location_type?: { id: string }; tenant?: { id: string } | null };

function mostCommon(values: string[]): string | null {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? null;
}

export async function loadFixtures(client: ApiClient, catalog: Catalog): Promise<Fixtures> {
  const locations = await client.all<Obj>('/api/dcim/locations/');
  const types = await client.all<Obj>('/api/dcim/location-types/');
  const byName = (name: string) => types.find((t) => t.name === name)?.id ?? null;
  const buildingType = byName('Building');
  const statuses = await client.all<Obj>('/api/extras/statuses/', 'name=Active');
  const step = Math.max(1, Math.floor(locations.length / 100));
  const fx: Fixtures = {
    locationIds: locations.filter((_, i) => i % step === 0).slice(0, 100).map((l) => l.id),
    roomType: byName('Room'),
    buildingIds: locations.filter((l) => l.location_type?.id === buildingType).map((l) => l.id),
    locationType: byName('Building') ?? types[0]?.id ?? null,
    busyTenant: mostCommon(locations.flatMap((l) => (l.tenant ? [l.tenant.id] : []))),
    tagIds: (await client.all<Obj>('/api/extras/tags/')).slice(0, 2).map((t) => t.id),
    activeLocationStatus: statuses[0]?.id ?? null,
    deviceId: null,
    deviceName: null,
    prefix16: null,
    prefixWithIps: null,
    rackId: null,
    interfaceWithIp: null,
  };
  if (catalog.has('dcim', 'devices')) {
    const res = await client.request('GET', '/api/dcim/devices/?limit=1');
    fx.deviceId = res.body?.results?.[0]?.id ?? null;
    fx.deviceName = res.body?.results?.[0]?.name ?? null;
  }
  if (catalog.has('dcim', 'racks')) {
    const res = await client.request('GET', '/api/dcim/racks/?limit=1&has_devices=true');
    fx.rackId = res.body?.results?.[0]?.id ?? null;
  }
  if (catalog.has('ipam', 'ip-address-to-interface')) {
    const res = await client.request('GET', '/api/ipam/ip-address-to-interface/?limit=100');
    fx.interfaceWithIp = (res.body?.results ?? []).find((a: { interface: { id: string } | null }) => a.interface)?.interface.id ?? null;
  }
  if (catalog.has('ipam', 'prefixes')) {
    const res = await client.request('GET', '/api/ipam/prefixes/?limit=1&prefix_length=16');
    fx.prefix16 = res.body?.results?.[0]?.prefix ?? null;
    const net = await client.request('GET', '/api/ipam/prefixes/?limit=1&prefix_length=24');
    fx.prefixWithIps = net.body?.results?.[0]?.id ?? null;
  }
  return fx;
}
