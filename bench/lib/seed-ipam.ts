import { createAll, someTags } from './seed-context.js';
import type { SeedContext } from './seed-context.js';

/** Objects the IPAM phase makes. */
export function plannedIpam(ctx: SeedContext): number {
  if (!ctx.catalog.has('ipam', 'prefixes')) return 0;
  return ctx.scale.prefixes + (ctx.catalog.has('ipam', 'ip-addresses') ? ctx.scale.ipAddresses : 0);
}

/**
 * /16 containers under 10.0.0.0/8 (RFC 1918), /24 networks inside them (the first ones each
 * the subnet of a site VLAN, at its site), and host addresses in the networks.
 */
export async function seedIpam(ctx: SeedContext): Promise<string | null> {
  if (!ctx.catalog.has('ipam', 'prefixes')) return 'prefixes and IP addresses skipped: no ipam/prefixes endpoint';
  const rng = ctx.rng('ipam');
  const total = ctx.scale.prefixes;
  const containers = Math.max(1, Math.ceil(total / 251));
  const networks = total - containers;
  const perContainer = Math.ceil(networks / containers);
  const tenant = () => (rng.chance(0.4) ? rng.pick(ctx.tenants).id : null);
  const rir = ctx.rirs.find((r) => r.name === 'RFC 1918')?.id;
  await createAll(ctx, 'prefixes', '/api/ipam/prefixes/', Array.from({ length: containers }, (_, k) => ({
    prefix: `${sixteen(k)}.0.0/16`, type: 'container', status: ctx.status('ipam.prefix', rng), tenant: tenant(), description: `Aggregate ${k}`, ...(rir ? { rir } : {}),
  })));
  const nets = Array.from({ length: networks }, (_, j) => `${sixteen(Math.floor(j / perContainer))}.${j % perContainer}.0/24`);
  const siteId = new Map(ctx.sites.map((s) => [s.name, s.id]));
  const vlans = [...ctx.vlans.entries()].flatMap(([site, list]) => list.map((v) => ({ vlan: v.id, location: siteId.get(site) })));
  await createAll(ctx, 'prefixes', '/api/ipam/prefixes/', nets.map((prefix, j) => ({
    prefix, type: 'network', status: ctx.status('ipam.prefix', rng), tenant: tenant(), tags: someTags(ctx, rng, 2), description: rng.chance(0.3) ? 'server segment' : '',
    ...(vlans[j] ?? {}),
  })));
  if (!ctx.catalog.has('ipam', 'ip-addresses')) return 'IP addresses skipped: no ipam/ip-addresses endpoint';
  const namespace = await globalNamespace(ctx);
  const perNet = Math.min(250, Math.ceil(ctx.scale.ipAddresses / Math.max(1, networks)));
  for (let start = 0; start < ctx.scale.ipAddresses; start += 1000) {
    const chunk = Array.from({ length: Math.min(1000, ctx.scale.ipAddresses - start) }, (_, k) => {
      const n = start + k;
      const net = nets[Math.floor(n / perNet) % nets.length].replace(/\.0\/24$/, '');
      const host = (n % perNet) + 1;
      return {
        address: `${net}.${host}/24`, namespace, status: ctx.status('ipam.ipaddress', rng), tenant: tenant(),
        dns_name: rng.chance(0.5) ? `host-${net.replaceAll('.', '-')}-${host}.example.com` : '', tags: someTags(ctx, rng, 1),
      };
    });
    const made = await ctx.client.ok<{ id: string }[]>('POST', '/api/ipam/ip-addresses/', chunk);
    ctx.ipAddresses.push(...made.body.map((ip) => ip.id));
    ctx.progress.tick('ip addresses', chunk.length);
    ctx.created['ip addresses'] = (ctx.created['ip addresses'] ?? 0) + chunk.length;
  }
  return null;
}

/** The first two octets of the k-th /16 container: 10.0 to 10.255, then 11.0 and on (xlarge's 797 containers). */
function sixteen(k: number): string {
  return `${10 + Math.floor(k / 256)}.${k % 256}`;
}

/** The Global namespace by id when the namespaces endpoint exists, else by natural key. */
async function globalNamespace(ctx: SeedContext): Promise<unknown> {
  if (!ctx.catalog.has('ipam', 'namespaces')) return { name: 'Global' };
  const res = await ctx.client.ok<{ results: { id: string }[] }>('GET', '/api/ipam/namespaces/?name=Global');
  return res.body.results[0]?.id ?? { name: 'Global' };
}
