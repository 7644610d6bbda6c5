import { createAll, missing, someCustomFields, someTags } from './seed-context.js';
import { siteHubs } from './seed-cables.js';
import type { Rng } from './prng.js';
import type { Ref, SeedContext } from './seed-context.js';

const PROVIDERS = [
  { name: 'Lumen', code: 'LUMN', asn: 3356 }, { name: 'Zayo', code: 'ZAYO', asn: 6461 }, { name: 'Cogent', code: 'COGC', asn: 174 },
  { name: 'NTT', code: 'NTTC', asn: 2914 }, { name: 'Arelion', code: 'TLIA', asn: 1299 }, { name: 'GTT', code: 'GTTC', asn: 3257 },
  { name: 'Verizon', code: 'VZBN', asn: 701 }, { name: 'AT&T', code: 'ATTC', asn: 7018 }, { name: 'Colt', code: 'COLT', asn: 8220 },
  { name: 'Orange', code: 'ORNG', asn: 5511 }, { name: 'Tata Communications', code: 'TATA', asn: 6453 }, { name: 'PCCW Global', code: 'PCCW', asn: 3491 },
];
/** Circuit types; point-to-point ones get a Z side at another site. */
const CIRCUIT_TYPES = [
  { name: 'Internet Transit', p2p: false }, { name: 'Dedicated Internet Access', p2p: false }, { name: 'MPLS VPN', p2p: false },
  { name: 'Dark Fiber', p2p: true }, { name: 'Wavelength', p2p: true }, { name: 'Ethernet Private Line', p2p: true },
];
const RATES = [100_000, 500_000, 1_000_000, 10_000_000, 100_000_000];
const NEEDS = ['circuits/providers', 'circuits/circuit-types', 'circuits/circuits', 'circuits/circuit-terminations'];

/** Objects the circuits phase makes (Z sides estimated at half the circuits). */
export function plannedCircuits(ctx: SeedContext): number {
  if (missing(ctx, NEEDS).length) return 0;
  return PROVIDERS.length + CIRCUIT_TYPES.length + Math.round(ctx.scale.circuits * 2.5);
}

/** Providers, circuit types, circuits, and their terminations in the rooms of the sites' core devices. */
export async function seedCircuits(ctx: SeedContext): Promise<string | null> {
  const absent = missing(ctx, NEEDS);
  if (absent.length) return `circuits skipped: no ${absent.join(', ')} endpoint`;
  const rng = ctx.rng('circuits');
  const providers = await createAll<Ref>(ctx, 'providers', '/api/circuits/providers/', PROVIDERS.map((p) => ({
    name: p.name, asn: p.asn, account: `ACCT-${rng.int(100_000, 999_999)}`, portal_url: `https://portal.${p.code.toLowerCase()}.example.net/`,
    noc_contact: `noc@${p.code.toLowerCase()}.example.net\n+1 555 ${rng.int(1000, 9999)}`, comments: '', tags: someTags(ctx, rng, 1),
  })));
  const types = await createAll<Ref>(ctx, 'circuit types', '/api/circuits/circuit-types/', CIRCUIT_TYPES.map((t) => ({ name: t.name, description: t.p2p ? 'point to point' : 'single-ended' })));
  const ends = circuitEnds(ctx, rng);
  const bodies = ends.map((e, i) => circuitBody(ctx, rng, { i, provider: providers[e.provider], code: PROVIDERS[e.provider].code, type: types[e.type] }));
  const circuits = await createAll<Ref>(ctx, 'circuits', '/api/circuits/circuits/', bodies);
  const sides = ends.flatMap((e, i) => e.hubs.map((hub, s) => ({ circuit: circuits[i].id, side: s === 0 ? 'A' : 'Z', hub, rate: bodies[i].commit_rate as number })));
  const made = await createAll<{ id: string }>(ctx, 'circuit terminations', '/api/circuits/circuit-terminations/', sides.map((t, i) => ({
    circuit: t.circuit, term_side: t.side, location: ctx.devices[t.hub].room, port_speed: t.rate, upstream_speed: rng.chance(0.2) ? t.rate / 10 : null,
    xconnect_id: rng.chance(0.7) ? `XC-${String(i + 1).padStart(6, '0')}` : '', pp_info: rng.chance(0.5) ? `PP${rng.int(1, 4)} port ${rng.int(1, 24)}` : '',
    description: '', tags: someTags(ctx, rng, 1),
  })));
  ctx.terminations = sides.map((t, i) => ({ id: made[i].id, device: t.hub }));
  return null;
}

/** Provider, type and the core device(s) each circuit ends at: one site, or two for point-to-point types. */
function circuitEnds(ctx: SeedContext, rng: Rng): { provider: number; type: number; hubs: number[] }[] {
  const hubs = [...siteHubs(ctx).values()];
  if (!hubs.length) return [];
  return Array.from({ length: ctx.scale.circuits }, () => {
    const provider = rng.int(0, PROVIDERS.length - 1);
    const type = rng.int(0, CIRCUIT_TYPES.length - 1);
    const a = rng.int(0, hubs.length - 1);
    const z = hubs.length > 1 && CIRCUIT_TYPES[type].p2p ? (a + rng.int(1, hubs.length - 1)) % hubs.length : -1;
    return { provider, type, hubs: [rng.pick(hubs[a]), ...(z >= 0 ? [rng.pick(hubs[z])] : [])] };
  });
}

function circuitBody(ctx: SeedContext, rng: Rng, o: { i: number; provider: Ref; code: string; type: Ref }): Record<string, unknown> {
  const year = rng.int(2012, 2024);
  return {
    cid: `${o.code}-${rng.int(1000, 9999)}-${String(o.i + 1).padStart(5, '0')}`, provider: o.provider.id, circuit_type: o.type.id,
    status: ctx.status('circuits.circuit', rng), tenant: rng.chance(0.3) ? rng.pick(ctx.tenants).id : null,
    install_date: `${year}-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`, commit_rate: rng.pick(RATES),
    description: rng.chance(0.5) ? `${o.type.name} via ${o.provider.name}` : '', comments: rng.chance(0.1) ? 'Renewal due; see contract.' : '',
    tags: someTags(ctx, rng, 2), custom_fields: someCustomFields(ctx, 'circuits.circuit', rng),
  };
}
