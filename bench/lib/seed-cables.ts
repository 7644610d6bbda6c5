import { COLORS } from './names.js';
import { createAll, missing, someTags } from './seed-context.js';
import { interfaceLayout } from './seed-devices.js';
import type { Rng } from './prng.js';
import type { SeedContext } from './seed-context.js';

type End = { type: 'dcim.interface' | 'circuits.circuittermination'; id: string };

/** Device indexes of each site's core routers, or of its first device when it has none, by site key. */
export function siteHubs(ctx: SeedContext): Map<string, number[]> {
  const bySite = new Map<string, number[]>();
  ctx.devices.forEach((d, i) => bySite.set(d.site, [...(bySite.get(d.site) ?? []), i]));
  const hubs = new Map<string, number[]>();
  for (const [site, list] of bySite) {
    const core = list.filter((i) => ctx.devices[i].role === 'cr');
    hubs.set(site, core.length ? core : [list[0]]);
  }
  return hubs;
}

/** Free ports of a hub: downlinks take access ports from the bottom, circuits the uplinks and then access ports from the top. */
class HubPorts {
  private low = 0;
  private high: number;
  private uplinks: number[];
  constructor(private readonly ids: string[], per: number) {
    const layout = interfaceLayout(per);
    this.high = layout.access - 1;
    this.uplinks = [...layout.uplinks];
  }
  downlink(): string | null { return this.low <= this.high ? this.ids[this.low++] : null; }
  circuit(): string | null {
    const u = this.uplinks.shift();
    if (u !== undefined) return this.ids[u];
    return this.low <= this.high ? this.ids[this.high--] : null;
  }
}

/** Objects the cables phase makes (estimated: two uplinks for most devices, one cable per circuit termination). */
export function plannedCables(ctx: SeedContext): number {
  if (missing(ctx, ['dcim/cables', 'dcim/interfaces']).length) return 0;
  return Math.round(ctx.scale.devices * 1.6 + ctx.scale.circuits * 1.5);
}

/**
 * Cables: each device's two uplinks to access ports of two core devices at its site (in turn),
 * and each circuit termination to a free port of the core device in whose room it ends.
 */
export async function seedCables(ctx: SeedContext): Promise<string | null> {
  const absent = missing(ctx, ['dcim/cables', 'dcim/interfaces']);
  if (absent.length) return `cables skipped: no ${absent.join(', ')} endpoint`;
  if (!ctx.devices.length || !ctx.devices[0].interfaces.length) return 'cables skipped: no devices with interfaces were made';
  const rng = ctx.rng('cables');
  const per = ctx.scale.interfacesPerDevice;
  const layout = interfaceLayout(per);
  const ports = new Map<number, HubPorts>();
  const hubPorts = (i: number) => ports.get(i) ?? ports.set(i, new HubPorts(ctx.devices[i].interfaces, per)).get(i)!;
  const pairs: [End, End][] = [];
  for (const hubs of siteHubs(ctx).values()) {
    const members = new Set(hubs);
    const site = ctx.devices[hubs[0]].site;
    let turn = 0;
    ctx.devices.forEach((d, i) => {
      if (d.site !== site || members.has(i)) return;
      layout.uplinks.forEach((u, k) => {
        const port = hubPorts(hubs[(turn + k) % hubs.length]).downlink();
        if (port) pairs.push([{ type: 'dcim.interface', id: d.interfaces[u] }, { type: 'dcim.interface', id: port }]);
      });
      turn += 1;
    });
  }
  // The interface is side A, as when the cable is connected from the device: lists sort by
  // termination_a_type, so circuit cables with side A a termination would all come first, and
  // a 100-row page would hold no interface-to-interface cable while the 500-row one does.
  for (const t of ctx.terminations) {
    const port = hubPorts(t.device).circuit();
    if (port) pairs.push([{ type: 'dcim.interface', id: port }, { type: 'circuits.circuittermination', id: t.id }]);
  }
  await createAll(ctx, 'cables', '/api/dcim/cables/', pairs.map((p, n) => cableBody(ctx, rng, p, n)), 1000);
  return null;
}

function cableBody(ctx: SeedContext, rng: Rng, [a, b]: [End, End], n: number): Record<string, unknown> {
  const circuit = b.type === 'circuits.circuittermination';
  return {
    termination_a_type: a.type, termination_a_id: a.id, termination_b_type: b.type, termination_b_id: b.id,
    status: rng.chance(0.95) ? ctx.statusNamed('dcim.cable', 'Connected') ?? ctx.status('dcim.cable', rng) : ctx.status('dcim.cable', rng),
    type: circuit ? 'smf-os2' : rng.pick(['mmf-om4', 'smf-os2', 'dac-passive', 'aoc']), label: `CBL-${String(n + 1).padStart(6, '0')}`,
    color: rng.pick(COLORS), length: rng.int(1, circuit ? 80 : 30), length_unit: 'm', tags: someTags(ctx, rng, 1),
  };
}
