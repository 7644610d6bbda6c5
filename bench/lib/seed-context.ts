import { makeRng } from './prng.js';
import type { ApiClient } from './client.js';
import type { Catalog } from './catalog.js';
import type { Progress } from './progress.js';
import type { Rng } from './prng.js';
import type { Scale } from './scales.js';

export type Ref = { id: string; name: string };

/** A device as later phases need it: where it stands, its role code and its interface ids (in order). */
export type PlacedDevice = { id: string; name: string; site: string; room: string; role: string; interfaces: string[] };

/** How many sites and rooms the location plan holds (for the progress bar's estimates). */
export type Shape = { sites: number; rooms: number };

/** A VLAN and its 802.1Q id. */
export type VlanRef = { id: string; vid: number };

/** A circuit termination and the device (index into `devices`) at whose room it ends. */
export type TerminationRef = { id: string; device: number };

/** State shared by the seed steps: the client, random streams, and what earlier steps made. */
export type SeedContext = {
  client: ApiClient;
  catalog: Catalog;
  scale: Scale;
  progress: Progress;
  /** An independent random stream per concern, so adding a model does not reshuffle the others. */
  rng(stream: string): Rng;
  warn(message: string): void;
  /** A status id valid for the object type: mostly Active, sometimes another allowed one. */
  status(objectType: string, rng: Rng): string | undefined;
  /** The id of the named status when it is allowed for the object type. */
  statusNamed(objectType: string, name: string): string | undefined;
  tags: Ref[];
  tenants: Ref[];
  /** Custom-field keys defined per object type (empty when the service has no custom fields). */
  customFields: Map<string, string[]>;
  /** Leaf locations (rooms), the key of the site above each and a short label ("B-205"), for devices and racks. */
  rooms: { id: string; site: string; label: string }[];
  /** Sites, `name` being a unique key: the site code, with a suffix when two sites share one ("DUB01-2"). */
  sites: Ref[];
  /** VLANs of each site's VLAN group, by site key. */
  vlans: Map<string, VlanRef[]>;
  vrfs: Ref[];
  rirs: Ref[];
  /** Virtualization clusters at each site, by site key. */
  clusters: Map<string, Ref[]>;
  /** Platforms by name. */
  platforms: Map<string, string>;
  /** Devices in creation order, with their interfaces once those exist. */
  devices: PlacedDevice[];
  terminations: TerminationRef[];
  /** Each virtual machine and its first interface, in creation order. */
  vms: { id: string; iface: string | null }[];
  /** IP address ids in creation order. */
  ipAddresses: string[];
  created: Record<string, number>;
};

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

type Status = { id: string; name: string; content_types: string[] };

export async function makeContext(opts: { client: ApiClient; catalog: Catalog; scale: Scale; progress: Progress; seed: number; warn: (m: string) => void }): Promise<SeedContext> {
  const statuses = await opts.client.all<Status>('/api/extras/statuses/');
  return {
    client: opts.client,
    catalog: opts.catalog,
    scale: opts.scale,
    progress: opts.progress,
    rng: (stream) => makeRng(opts.seed ^ hash(stream)),
    warn: opts.warn,
    status(objectType, rng) {
      const allowed = statuses.filter((s) => s.content_types.includes(objectType));
      const active = allowed.find((s) => s.name === 'Active');
      if (active && (allowed.length === 1 || rng.chance(0.85))) return active.id;
      return allowed.length ? rng.pick(allowed).id : undefined;
    },
    statusNamed: (objectType, name) => statuses.find((s) => s.name === name && s.content_types.includes(objectType))?.id,
    tags: [],
    tenants: [],
    customFields: new Map(),
    rooms: [],
    sites: [],
    vlans: new Map(),
    vrfs: [],
    rirs: [],
    clusters: new Map(),
    platforms: new Map(),
    devices: [],
    terminations: [],
    vms: [],
    ipAddresses: [],
    created: {},
  };
}

/** Bulk-creates through the API with progress, counting what was made. */
export async function createAll<T = any>(ctx: SeedContext, label: string, path: string, items: unknown[], batch = 500): Promise<T[]> {
  const out = await ctx.client.bulkCreate<T>(path, items, { batch, onBatch: (n) => ctx.progress.tick(label, n) });
  ctx.created[label] = (ctx.created[label] ?? 0) + out.length;
  return out;
}

/** Bulk-PATCHes through the API in batches, with progress (`label` is not counted as created). */
export async function patchAll(ctx: SeedContext, label: string, path: string, items: { id: string }[], batch = 1000): Promise<void> {
  for (let i = 0; i < items.length; i += batch) {
    const chunk = items.slice(i, i + batch);
    await ctx.client.ok('PATCH', path, chunk);
    ctx.progress.tick(label, chunk.length);
  }
}

/** The endpoints (`app/path`) a phase needs that the service lacks; the phase is skipped when any is. */
export function missing(ctx: SeedContext, needs: string[]): string[] {
  return needs.filter((n) => !ctx.catalog.has(...(n.split('/') as [string, string])));
}

/** 0-3 tags from the seeded set, as id references. */
export function someTags(ctx: SeedContext, rng: Rng, max = 3): string[] {
  return rng.sample(ctx.tags, rng.int(0, max)).map((t) => t.id);
}

/** Custom-field values for the object type, when the service has custom fields. */
export function someCustomFields(ctx: SeedContext, objectType: string, rng: Rng): Record<string, unknown> | undefined {
  const keys = ctx.customFields.get(objectType);
  if (!keys?.length) return undefined;
  return {
    bench_owner: rng.chance(0.6) ? rng.pick(['netops', 'facilities', 'security', 'platform', 'noc']) : null,
    bench_cost_center: rng.chance(0.5) ? rng.int(1000, 9999) : null,
  };
}
