import { COLORS } from './names.js';
import { createAll, missing, someCustomFields, someTags } from './seed-context.js';
import type { Rng } from './prng.js';
import type { Ref, SeedContext, Shape } from './seed-context.js';

const CLUSTER_TYPES = [
  { name: 'VMware vSphere', code: 'vsphere' }, { name: 'Proxmox VE', code: 'pve' }, { name: 'OpenStack', code: 'osp' }, { name: 'Microsoft Hyper-V', code: 'hyperv' },
];
const CLUSTER_GROUPS = ['Production', 'Non-production', 'Disaster recovery'];
const VM_ROLES = [
  { name: 'Web Server', code: 'web' }, { name: 'Application Server', code: 'app' }, { name: 'Database Server', code: 'db' }, { name: 'Domain Controller', code: 'dc' },
];
/** Guest operating systems (platforms without a manufacturer, created by the devices phase). */
export const GUEST_PLATFORMS = ['Ubuntu 22.04', 'Red Hat Enterprise Linux 9', 'Windows Server 2022'];

const CLUSTER_NEEDS = ['virtualization/clusters', 'virtualization/cluster-types', 'virtualization/cluster-groups'];
const VM_NEEDS = ['virtualization/virtual-machines', 'virtualization/interfaces', 'extras/roles'];

/** Objects the virtualization phases make at this scale (clusters estimated at their mean per site). */
export function plannedVirtualization(ctx: SeedContext, shape: Shape): number {
  if (missing(ctx, CLUSTER_NEEDS).length) return 0;
  const [lo, hi] = ctx.scale.clustersPerSite;
  let n = CLUSTER_TYPES.length + CLUSTER_GROUPS.length + Math.round((shape.sites * (lo + hi)) / 2);
  if (!missing(ctx, VM_NEEDS).length) n += VM_ROLES.length + Math.round(ctx.scale.virtualMachines * 2.3);
  return n;
}

/** Cluster types and groups, and clusters at each site (before devices: servers are their hosts). */
export async function seedClusters(ctx: SeedContext): Promise<string | null> {
  const absent = missing(ctx, CLUSTER_NEEDS);
  if (absent.length) return `clusters skipped: no ${absent.join(', ')} endpoint`;
  const rng = ctx.rng('clusters');
  const types = await createAll<Ref>(ctx, 'cluster types', '/api/virtualization/cluster-types/', CLUSTER_TYPES.map((t) => ({ name: t.name, description: `${t.name} hypervisors` })));
  const groups = await createAll<Ref>(ctx, 'cluster groups', '/api/virtualization/cluster-groups/', CLUSTER_GROUPS.map((name) => ({ name })));
  const planned = ctx.sites.flatMap((site) => Array.from({ length: rng.int(...ctx.scale.clustersPerSite) }, (_, k) => ({ site, k, type: rng.int(0, types.length - 1) })));
  const made = await createAll<Ref>(ctx, 'clusters', '/api/virtualization/clusters/', planned.map(({ site, k, type }) => ({
    name: `${site.name.toLowerCase()}-${CLUSTER_TYPES[type].code}-${k + 1}`, cluster_type: types[type].id, cluster_group: rng.chance(0.8) ? rng.pick(groups).id : null,
    location: site.id, tenant: rng.chance(0.2) ? rng.pick(ctx.tenants).id : null, comments: rng.chance(0.3) ? 'Capacity review each quarter.' : '', tags: someTags(ctx, rng, 2),
  })));
  planned.forEach(({ site }, i) => ctx.clusters.set(site.name, [...(ctx.clusters.get(site.name) ?? []), made[i]]));
  return null;
}

/** A locally administered MAC address, unique per `n` (below 2^24). */
export function macAddress(n: number): string {
  return [0x52, 0x54, 0x00, (n >> 16) & 255, (n >> 8) & 255, n & 255].map((b) => b.toString(16).padStart(2, '0')).join(':');
}

/** Virtual machines in the clusters, each with eth0 (and sometimes eth1) on a VLAN of the cluster's site. */
export async function seedVirtualMachines(ctx: SeedContext): Promise<string | null> {
  const absent = missing(ctx, VM_NEEDS);
  if (absent.length) return `virtual machines skipped: no ${absent.join(', ')} endpoint`;
  const sites = [...ctx.clusters.keys()];
  if (!sites.length) return 'virtual machines skipped: no clusters were made';
  const rng = ctx.rng('virtual machines');
  const roles = await createAll<Ref>(ctx, 'roles', '/api/extras/roles/', VM_ROLES.map((r) => ({ name: r.name, color: rng.pick(COLORS), content_types: ['virtualization.virtualmachine'] })));
  const platforms = GUEST_PLATFORMS.map((p) => ctx.platforms.get(p)).filter((p): p is string => Boolean(p));
  const placed = Array.from({ length: ctx.scale.virtualMachines }, () => rng.pick(sites));
  const bodies = placed.map((site, i) => vmBody(ctx, rng, { i, site, roles, platforms }));
  const vms = await createAll<{ id: string }>(ctx, 'virtual machines', '/api/virtualization/virtual-machines/', bodies, 1000);
  const ifaces = vms.flatMap((vm, i) => ['eth0', ...(rng.chance(0.3) ? ['eth1'] : [])].map((name, k) => {
    const vlan = ctx.vlans.get(placed[i])?.length ? rng.pick(ctx.vlans.get(placed[i])!) : null;
    return {
      virtual_machine: vm.id, name, status: ctx.status('virtualization.vminterface', rng), enabled: rng.chance(0.97), mtu: k === 0 ? 1500 : 9000,
      mac_address: macAddress(i * 2 + k), mode: vlan ? 'access' : '', untagged_vlan: vlan?.id ?? null, description: k === 0 ? 'primary' : 'storage',
    };
  }));
  const made = await createAll<{ id: string; virtual_machine: { id: string } }>(ctx, 'vm interfaces', '/api/virtualization/interfaces/', ifaces, 1000);
  const first = new Map<string, string>();
  for (const m of made) if (!first.has(m.virtual_machine.id)) first.set(m.virtual_machine.id, m.id);
  ctx.vms = vms.map((vm) => ({ id: vm.id, iface: first.get(vm.id) ?? null }));
  return null;
}

function vmBody(ctx: SeedContext, rng: Rng, o: { i: number; site: string; roles: Ref[]; platforms: string[] }): Record<string, unknown> {
  const r = rng.int(0, VM_ROLES.length - 1);
  return {
    name: `${VM_ROLES[r].code}-${o.site.toLowerCase()}-${String(o.i + 1).padStart(5, '0')}`, cluster: rng.pick(ctx.clusters.get(o.site)!).id,
    status: ctx.status('virtualization.virtualmachine', rng), role: o.roles[r].id, platform: o.platforms.length ? rng.pick(o.platforms) : null,
    tenant: rng.chance(0.6) ? rng.pick(ctx.tenants).id : null, vcpus: rng.pick([1, 2, 4, 8, 16]), memory: 1024 * rng.pick([1, 2, 4, 8, 16, 32, 64]),
    disk: rng.pick([20, 40, 80, 100, 250, 500, 1000]), comments: rng.chance(0.1) ? 'Snapshot before patching.' : '',
    tags: someTags(ctx, rng, 2), custom_fields: someCustomFields(ctx, 'virtualization.virtualmachine', rng),
  };
}
