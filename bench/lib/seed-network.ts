import { COLORS, numbered } from './names.js';
import { createAll, missing, someTags } from './seed-context.js';
import type { Rng } from './prng.js';
import type { Ref, SeedContext, Shape, VlanRef } from './seed-context.js';

const RIRS = [
  { name: 'RFC 1918', is_private: true, description: 'Private IPv4 space' },
  { name: 'RFC 6598', is_private: true, description: 'Shared address space (CGNAT)' },
  { name: 'ARIN', is_private: false, description: 'North America' },
  { name: 'RIPE NCC', is_private: false, description: 'Europe, Middle East, Central Asia' },
  { name: 'APNIC', is_private: false, description: 'Asia Pacific' },
  { name: 'LACNIC', is_private: false, description: 'Latin America and the Caribbean' },
  { name: 'AFRINIC', is_private: false, description: 'Africa' },
];
/** Infrastructure VRFs first, then one per customer tenant. */
const INFRA_VRFS = ['MGMT', 'INTERNET', 'PCI', 'VOICE', 'GUEST', 'BACKUP'];
const VLAN_ROLES = ['Data', 'Voice', 'Management'];
const VLAN_NAMES = ['users', 'voice', 'printers', 'servers', 'storage', 'mgmt', 'guest', 'iot', 'cameras', 'wifi', 'vmotion', 'backup', 'dmz', 'lab', 'facilities'];

/** Objects the network phase makes at this scale (for the progress bar). */
export function plannedNetwork(ctx: SeedContext, shape: Shape): number {
  if (missing(ctx, ['ipam/vlans', 'ipam/vlan-groups', 'ipam/vrfs', 'ipam/route-targets', 'ipam/rirs']).length) return 0;
  const s = ctx.scale;
  return RIRS.length + (s.vrfs + 1) * 2 + VLAN_ROLES.length + shape.sites * (1 + s.vlansPerSite);
}

/** RIRs, route targets, VRFs (importing and exporting their own target), a VLAN group per site and its VLANs. */
export async function seedNetwork(ctx: SeedContext): Promise<string | null> {
  const absent = missing(ctx, ['ipam/vlans', 'ipam/vlan-groups', 'ipam/vrfs', 'ipam/route-targets', 'ipam/rirs']);
  if (absent.length) return `RIRs, VRFs and VLANs skipped: no ${absent.join(', ')} endpoint`;
  ctx.rirs = await createAll<Ref>(ctx, 'rirs', '/api/ipam/rirs/', RIRS);
  await seedVrfs(ctx, ctx.rng('vrfs'));
  await seedVlans(ctx, ctx.rng('vlans'));
  return null;
}

async function seedVrfs(ctx: SeedContext, rng: Rng): Promise<void> {
  const n = ctx.scale.vrfs;
  const targets = await createAll<Ref>(ctx, 'route targets', '/api/ipam/route-targets/', [
    { name: '65000:1', description: 'shared services' },
    ...Array.from({ length: n }, (_, i) => ({ name: `65000:${100 + i}`, description: `VRF ${100 + i}`, tags: someTags(ctx, rng, 1) })),
  ]);
  const [shared, ...own] = targets;
  const bodies = Array.from({ length: n }, (_, i) => {
    const tenant = i < INFRA_VRFS.length ? null : ctx.tenants[(i * 7) % ctx.tenants.length];
    return {
      name: tenant ? `CUST-${tenant.name.toUpperCase().replaceAll(' ', '-')}` : INFRA_VRFS[i],
      rd: `65000:${100 + i}`, tenant: tenant?.id ?? null, status: ctx.status('ipam.vrf', rng),
      description: tenant ? `L3VPN for ${tenant.name}` : `${INFRA_VRFS[i].toLowerCase()} routing table`,
      import_targets: rng.chance(0.4) ? [own[i].id, shared.id] : [own[i].id], export_targets: [own[i].id], tags: someTags(ctx, rng, 2),
    };
  });
  ctx.vrfs = await createAll<Ref>(ctx, 'vrfs', '/api/ipam/vrfs/', bodies);
}

async function seedVlans(ctx: SeedContext, rng: Rng): Promise<void> {
  const roles = ctx.catalog.has('extras', 'roles')
    ? await createAll<Ref>(ctx, 'roles', '/api/extras/roles/', VLAN_ROLES.map((name) => ({ name, color: rng.pick(COLORS), content_types: ['ipam.vlan'] })))
    : [];
  const groups = await createAll<Ref>(ctx, 'vlan groups', '/api/ipam/vlan-groups/', ctx.sites.map((site) => ({
    name: `${site.name} VLANs`, location: site.id, range: '1-4094', description: `VLANs of site ${site.name}`, tags: someTags(ctx, rng, 1),
  })));
  const bodies = ctx.sites.flatMap((site, g) => Array.from({ length: ctx.scale.vlansPerSite }, (_, k) => ({
    vid: 10 * (k + 1), name: numbered(VLAN_NAMES, k), vlan_group: groups[g].id, location: site.id,
    status: ctx.status('ipam.vlan', rng), role: roles.length ? roles[k % roles.length].id : null,
    tenant: rng.chance(0.2) ? rng.pick(ctx.tenants).id : null, description: rng.chance(0.4) ? `${numbered(VLAN_NAMES, k)} at ${site.name}` : '',
    tags: someTags(ctx, rng, 1),
  })));
  const made = await createAll<{ id: string; vid: number }>(ctx, 'vlans', '/api/ipam/vlans/', bodies);
  ctx.sites.forEach((site, g) => {
    const per = ctx.scale.vlansPerSite;
    ctx.vlans.set(site.name, made.slice(g * per, (g + 1) * per).map((v): VlanRef => ({ id: v.id, vid: v.vid })));
  });
}
