/**
 * Fills a database with a realistic, deterministic inventory through the service's own bulk API.
 *
 *   npm run seed -- --scale small|medium|large [--url URL --token TOKEN] [--seed N]
 *
 * Without --url the service is started in this process on DATABASE_URL (default
 * bench/.data/bench.sqlite3). Models whose endpoints do not exist yet are skipped with a note.
 */
import { parseArgs } from './lib/args.js';
import { discover } from './lib/catalog.js';
import { ApiClient } from './lib/client.js';
import { BENCH_TOKEN, benchDatabaseUrl, redact } from './lib/env.js';
import { startLocalApp } from './lib/local-app.js';
import { makeProgress } from './lib/progress.js';
import { toScale } from './lib/scales.js';
import { makeContext } from './lib/seed-context.js';
import { planLocations, seedCustomFields, seedLocations, seedTags, seedTenancy } from './lib/seed-core.js';
import { plannedAssignments, seedIpAssignments } from './lib/seed-assignments.js';
import { plannedCables, seedCables } from './lib/seed-cables.js';
import { plannedCircuits, seedCircuits } from './lib/seed-circuits.js';
import { plannedDevices, seedDevices } from './lib/seed-devices.js';
import { plannedIpam, seedIpam } from './lib/seed-ipam.js';
import { plannedNetwork, seedNetwork } from './lib/seed-network.js';
import { plannedVirtualization, seedClusters, seedVirtualMachines } from './lib/seed-virtualization.js';
import { makeRng } from './lib/prng.js';
import { vacuumAnalyze } from './lib/vacuum.js';
import { pathToFileURL } from 'node:url';
import type { Scale } from './lib/scales.js';
import type { SeedContext, Shape } from './lib/seed-context.js';

/** What a seed run made: objects per kind, and seconds per kind (requests and body building, as the progress bar saw them). */
export type SeedSummary = { scale: string; seconds: number; objects: number; objectsPerSecond: number; created: Record<string, number>; phaseSeconds: Record<string, number>; notes: string[] };

export const DEFAULT_SEED = 20240501;

/**
 * The phases after the location tree, in order: each may use what earlier ones made (VLANs
 * for interfaces and prefixes, clusters for servers, devices for circuits and cables, IPs and
 * interfaces for assignments). A phase the service refuses stops with a note; later ones
 * skip what it would have made.
 */
const PHASES: ((ctx: SeedContext) => Promise<string | null>)[] = [
  seedNetwork, seedClusters, seedDevices, seedIpam, seedCircuits, seedCables, seedVirtualMachines, seedIpAssignments,
];

/** Objects the phases plan to make (estimates where the count depends on the data), for the progress bar. */
function plannedPhases(ctx: SeedContext, shape: Shape): number {
  return plannedNetwork(ctx, shape) + plannedVirtualization(ctx, shape) + plannedDevices(ctx, shape) + plannedIpam(ctx) + plannedCircuits(ctx) + plannedCables(ctx) + plannedAssignments(ctx);
}

/** Seeds through `client`; refuses a database that already has locations. */
export async function seedDatabase(client: ApiClient, opts: { scale: Scale; seed?: number; quiet?: boolean }): Promise<SeedSummary> {
  const started = performance.now();
  const seed = opts.seed ?? DEFAULT_SEED;
  const existing = await client.count('/api/dcim/locations/');
  if (existing > 0) throw new Error(`the database already holds ${existing} locations; seed an empty database (new DATABASE_URL, or delete bench/.data/)`);
  const catalog = await discover(client);
  const notes: string[] = [];
  const warn = (m: string) => { notes.push(m); if (!opts.quiet) process.stderr.write(`\nnote: ${m}\n`); };
  const plan = planLocations(opts.scale, makeRng(seed ^ 0x10c));
  const s = opts.scale;
  const progress = makeProgress(0, { quiet: opts.quiet });
  const ctx = await makeContext({ client, catalog, scale: s, progress, seed, warn });
  const shape = { sites: plan.filter((p) => p.level === 'Site').length, rooms: plan.filter((p) => p.level === 'Room').length };
  const total = (catalog.has('extras', 'custom-fields') ? 2 : 0) + s.tags + s.tenantGroups + s.tenants + 4 + plan.length + plannedPhases(ctx, shape);
  ctx.progress = makeProgress(total, { quiet: opts.quiet });
  await seedCustomFields(ctx);
  await seedTags(ctx);
  await seedTenancy(ctx);
  await seedLocations(ctx, plan);
  for (const phase of PHASES) {
    try {
      const note = await phase(ctx);
      if (note) notes.push(note);
    } catch (err) {
      warn(`${phase.name} stopped: ${(err as Error).message.slice(0, 300)}`);
    }
  }
  ctx.progress.finish();
  const seconds = (performance.now() - started) / 1000;
  const objects = Object.values(ctx.created).reduce((a, b) => a + b, 0);
  return { scale: s.name, seconds, objects, objectsPerSecond: objects / seconds, created: ctx.created, phaseSeconds: ctx.progress.seconds(), notes };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), { scale: 'string', url: 'string', token: 'string', seed: 'string', quiet: 'flag' });
  const scale = toScale(String(args.scale ?? 'small'));
  const seed = args.seed ? Number(args.seed) : DEFAULT_SEED;
  let close = async () => undefined as void;
  let client: ApiClient;
  if (args.url) {
    const token = String(args.token ?? process.env.API_TOKEN ?? '');
    if (!token) throw new Error('--url needs --token (or API_TOKEN)');
    client = new ApiClient(String(args.url).replace(/\/+$/, ''), token);
  } else {
    const url = benchDatabaseUrl();
    process.stderr.write(`seeding ${redact(url)} in process\n`);
    const local = await startLocalApp(url);
    close = local.close;
    client = new ApiClient(local.url, BENCH_TOKEN);
  }
  try {
    const summary = await seedDatabase(client, { scale, seed, quiet: Boolean(args.quiet) });
    if (!args.url) await vacuumAnalyze(benchDatabaseUrl());
    console.log(JSON.stringify(summary, null, 2));
  } finally {
    await close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
