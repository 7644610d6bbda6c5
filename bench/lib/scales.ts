/**
 * Data-set sizes per scale. Large follows issue 7: ~1 000 locations, 10 000 devices, 200 000
 * interfaces, 20 000 prefixes, 100 000 IPs. Medium holds a list of over 100 000 rows
 * (interfaces: 2 000 48-port switches with two uplinks and a management port) so the CSV
 * phase exports 100 000 rows at that scale too. Xlarge is issue 22's million rows (its /16
 * containers run past 10.255.0.0/16 into 11.0.0.0/8 and on).
 */
export type Scale = {
  name: ScaleName;
  tenantGroups: number;
  tenants: number;
  tags: number;
  /** Top regions, each with `subRegions` children; sites hang under the leaf regions. */
  regions: number;
  subRegions: number;
  /** Inclusive [min, max] children per parent, drawn from the seeded PRNG. */
  sitesPerRegion: [number, number];
  buildingsPerSite: [number, number];
  roomsPerBuilding: [number, number];
  devices: number;
  /** Interfaces per device: access ports, then two uplinks and a management port. */
  interfacesPerDevice: number;
  /** Devices mounted per rack; each room gets the racks its devices need, sometimes a spare. */
  devicesPerRack: number;
  prefixes: number;
  ipAddresses: number;
  /** VLANs in each site's VLAN group. */
  vlansPerSite: number;
  vrfs: number;
  circuits: number;
  /** Inclusive [min, max] virtualization clusters per site. */
  clustersPerSite: [number, number];
  virtualMachines: number;
};

export type ScaleName = 'small' | 'medium' | 'large' | 'xlarge';

export const SCALES: Record<ScaleName, Scale> = {
  small: {
    name: 'small', tenantGroups: 4, tenants: 40, tags: 8, regions: 2, subRegions: 1,
    sitesPerRegion: [2, 4], buildingsPerSite: [1, 3], roomsPerBuilding: [1, 3],
    devices: 100, interfacesPerDevice: 10, devicesPerRack: 6, prefixes: 100, ipAddresses: 500,
    vlansPerSite: 8, vrfs: 5, circuits: 20, clustersPerSite: [1, 1], virtualMachines: 150,
  },
  medium: {
    name: 'medium', tenantGroups: 12, tenants: 300, tags: 20, regions: 4, subRegions: 2,
    sitesPerRegion: [3, 5], buildingsPerSite: [2, 4], roomsPerBuilding: [2, 5],
    devices: 2000, interfacesPerDevice: 51, devicesPerRack: 6, prefixes: 4000, ipAddresses: 20000,
    vlansPerSite: 30, vrfs: 40, circuits: 320, clustersPerSite: [1, 2], virtualMachines: 3000,
  },
  large: {
    name: 'large', tenantGroups: 30, tenants: 1000, tags: 40, regions: 5, subRegions: 3,
    sitesPerRegion: [3, 7], buildingsPerSite: [2, 4], roomsPerBuilding: [2, 4],
    devices: 10000, interfacesPerDevice: 20, devicesPerRack: 8, prefixes: 20000, ipAddresses: 100000,
    vlansPerSite: 40, vrfs: 150, circuits: 1500, clustersPerSite: [1, 3], virtualMachines: 15000,
  },
  /** Issue 22's million rows: 1 000 000 IP addresses, 500 000 interfaces, 50 000 devices, 200 000 prefixes. */
  xlarge: {
    name: 'xlarge', tenantGroups: 30, tenants: 2000, tags: 40, regions: 6, subRegions: 4,
    sitesPerRegion: [4, 8], buildingsPerSite: [2, 4], roomsPerBuilding: [2, 5],
    devices: 50000, interfacesPerDevice: 10, devicesPerRack: 10, prefixes: 200000, ipAddresses: 1000000,
    vlansPerSite: 40, vrfs: 200, circuits: 2000, clustersPerSite: [1, 3], virtualMachines: 20000,
  },
};

export function toScale(name: string): Scale {
  const scale = SCALES[name as ScaleName];
  if (!scale) throw new Error(`--scale must be one of ${Object.keys(SCALES).join(', ')}, got "${name}"`);
  return scale;
}
