/**
 * The benchmark harness (issue 7):
 *
 *   npm run bench [-- --scale medium --duration 5 --warmup 1 --connections 10 --csv-timeout 120 --workers 1 --fresh --guard-only]
 *
 * Starts the service as a child process on DATABASE_URL (default bench/.data/bench.sqlite3;
 * PostgreSQL when DATABASE_URL=postgres://...), seeds it when empty, checks the query counts
 * in-process, measures a bare-route floor, the request mix and the mixed read/write load
 * (issue 22; --mixed-duration 60 --mixed-connections 8) with autocannon, and writes
 * bench/results/<date>-<db>.md and .json. Exits 1 when the query guard fails or a scenario errs.
 */
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from './lib/args.js';
import { measureBulk } from './lib/bulk.js';
import { measureBulkWithWebhook } from './lib/bulk-webhook.js';
import { discover } from './lib/catalog.js';
import { ApiClient } from './lib/client.js';
import { csvSupported, exportCsv } from './lib/csv-export.js';
import { BENCH_DIR, BENCH_TOKEN, BENCH_USER, benchDatabaseUrl, dbKind, redact } from './lib/env.js';
import { loadFixtures } from './lib/fixtures.js';
import { FloorServer } from './lib/floor.js';
import { drive } from './lib/load.js';
import { buildBenchApp } from './lib/local-app.js';
import { databaseVersion, describeMachine, gitCommit } from './lib/machine.js';
import { readMemory, watchMemory } from './lib/memory.js';
import { measureMixed } from './lib/mixed.js';
import { measureDetailDuringJob } from './lib/during-job.js';
import { countStatements, cpuPerRequest, runGuard, trackHandlerStatements } from './lib/query-guard.js';
import { countWriteStatements } from './lib/write-statements.js';
import { toMarkdown, writeResults } from './lib/report.js';
import { measureUiPages } from './lib/ui-pages.js';
import { toScale } from './lib/scales.js';
import { DATASET_LISTS, FLOOR_PATH, countKey, guardPaths, readScenarios } from './lib/scenarios.js';
import { freshDatabase } from './lib/scratch-db.js';
import { vacuumAnalyze } from './lib/vacuum.js';
import { startChild, stopAllChildren } from './lib/server.js';
import { seedDatabase } from './seed.js';
import type { Catalog } from './lib/catalog.js';
import type { ChildServer } from './lib/server.js';
import type { LoadSettings } from './lib/load.js';
import type { ReadRow, Results } from './lib/report.js';
import type { ReadScenario } from './lib/scenarios.js';

const log = (m: string) => process.stderr.write(`${m}\n`);
const HEADERS = { authorization: `Token ${BENCH_TOKEN}`, accept: 'application/json' };

type Options = { scale: string; settings: LoadSettings; mixed: LoadSettings; bulkSize: number; rounds: number; csvTimeout: number; fresh: boolean; guardOnly: boolean; out: string; workers: number };

function readOptions(): Options {
  const a = parseArgs(process.argv.slice(2), {
    scale: 'string', duration: 'string', warmup: 'string', connections: 'string', 'bulk-size': 'string', rounds: 'string', 'csv-timeout': 'string', fresh: 'flag', 'guard-only': 'flag', out: 'string', workers: 'string', 'mixed-duration': 'string', 'mixed-connections': 'string',
  });
  const num = (k: string, d: number) => (a[k] === undefined ? d : Number(a[k]));
  return {
    scale: String(a.scale ?? 'medium'),
    settings: { duration: num('duration', 5), warmup: num('warmup', 1), connections: num('connections', 10) },
    mixed: { duration: num('mixed-duration', 60), warmup: num('warmup', 1), connections: num('mixed-connections', 8) },
    bulkSize: num('bulk-size', 1000),
    rounds: num('rounds', 5),
    csvTimeout: num('csv-timeout', 120),
    fresh: Boolean(a.fresh),
    guardOnly: Boolean(a['guard-only']),
    out: String(a.out ?? path.join(BENCH_DIR, 'results')),
    workers: num('workers', 1),
  };
}

async function datasetCounts(client: ApiClient, catalog: Catalog): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const p of [...DATASET_LISTS, 'extras/object-changes']) {
    if (catalog.has(...(p.split('/') as [string, string]))) counts[countKey(p)] = await client.count(`/api/${p}/`);
  }
  return counts;
}

/** One GET scenario under load, with the server's peak RSS over it and the body it answered (for its floor). */
async function measureRead(server: ChildServer, s: ReadScenario, settings: LoadSettings, counted: { statements: number; cpuMs: number } | null): Promise<{ row: ReadRow; body: Buffer } | string> {
  const headers = { ...HEADERS, ...s.headers };
  const probe = await fetch(server.url + s.paths[0], s.post === undefined ? { headers } : { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: s.post });
  const body = Buffer.from(await probe.arrayBuffer());
  if (probe.status !== 200) return `${s.name} skipped: ${s.post === undefined ? 'GET' : 'POST'} ${s.paths[0]} -> ${probe.status}`;
  const mem = watchMemory(server.pid);
  const fig = await drive({ base: server.url, paths: s.paths, headers, settings, post: s.post });
  const row: ReadRow = { ...fig, name: s.name, path: s.paths.length > 1 ? `${s.paths[0]} (+${s.paths.length - 1} more)` : s.paths[0], list: s.list, floorRatio: null, floorRps: null, statements: counted?.statements ?? null, cpuMs: counted?.cpuMs ?? null, bytes: body.length, peakRssMb: mem.stop().peakMb };
  return { row, body };
}

/** The headline floor row: the depth-0 locations page's exact bytes, served by the bare route. */
async function measureFloor(server: ChildServer, floors: FloorServer): Promise<ReadRow> {
  const res = await fetch(server.url + FLOOR_PATH, { headers: HEADERS });
  const fig = await floors.figuresFor(Buffer.from(await res.arrayBuffer()));
  return { ...fig, name: 'floor', path: FLOOR_PATH, list: true, floorRatio: 1, floorRps: fig.rps, statements: 0, cpuMs: null };
}

async function main(): Promise<number> {
  const opts = readOptions();
  const started = performance.now();
  const machine = describeMachine();
  let dbUrl = benchDatabaseUrl();
  const db = dbKind(dbUrl);
  let drop = async () => undefined as void;
  const interrupted = () => { void stopAllChildren().then(() => drop()).finally(() => process.exit(130)); };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  if (opts.fresh) ({ url: dbUrl, drop } = await freshDatabase(dbUrl));
  log(`bench: ${db} at ${redact(dbUrl)}`);
  const serverEnv = { LOG_LEVEL: 'warn', SUPERUSER_NAME: BENCH_USER, SUPERUSER_API_TOKEN: BENCH_TOKEN, MAX_PAGE_SIZE: '0', WORKERS: String(opts.workers), WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', JOBS_ROOT: path.join(BENCH_DIR, 'jobs') };
  const server = await startChild({ script: 'src/server.ts', env: { ...serverEnv, DATABASE_URL: dbUrl }, healthPath: '/health/' });
  const notes: string[] = [];
  try {
    const client = new ApiClient(server.url, BENCH_TOKEN);
    const startRssMb = readMemory(server.pid)?.rssMb ?? NaN;
    let seed: Awaited<ReturnType<typeof seedDatabase>> | null = null;
    let seedPeak: number | null = null;
    if ((await client.count('/api/dcim/locations/')) === 0) {
      log(`seeding ${opts.scale} data set through the API...`);
      const mem = watchMemory(server.pid);
      seed = await seedDatabase(client, { scale: toScale(opts.scale) });
      seedPeak = mem.stop().peakMb;
      notes.push(...seed.notes.map((n) => `seed: ${n}`));
      const vacuumSeconds = await vacuumAnalyze(dbUrl);
      if (vacuumSeconds > 0) notes.push(`seed: VACUUM ANALYZE after seeding (what autovacuum would do; it is off on this server) took ${vacuumSeconds.toFixed(1)} s, not counted in the seed's time`);
    }
    const catalog = await discover(client);
    const fixtures = await loadFixtures(client, catalog);
    const counts = await datasetCounts(client, catalog);
    const { scenarios, notes: scenarioNotes } = readScenarios(catalog, fixtures, counts);
    notes.push(...scenarioNotes);

    log('query-count guard (in process)...');
    const app = await buildBenchApp(dbUrl, { migrate: false });
    trackHandlerStatements(app);
    const guard = await runGuard(app, guardPaths(catalog, counts));
    const statements = new Map<string, { statements: number; cpuMs: number }>();
    for (const s of scenarios) {
      await countStatements(app, s.paths[0], s.post);
      statements.set(s.name, { statements: (await countStatements(app, s.paths[0], s.post)).statements, cpuMs: await cpuPerRequest(app, s.paths[0], 20, s.post) });
    }
    const writeStatements = opts.guardOnly ? [] : await countWriteStatements(app, fixtures);
    if (!opts.guardOnly) log('web interface pages (in process)...');
    const uiPages = opts.guardOnly ? undefined : await measureUiPages(app, { runs: 5 });
    const dbVersion = await databaseVersion(app);
    await app.close();
    const guardOk = guard.every((g) => g.verdict !== 'FAIL');
    if (!guardOk) log(`\n!!! QUERY-COUNT GUARD FAILED: a list page's statement count grows with its size (N+1) !!!\n${guard.filter((g) => g.verdict === 'FAIL').map((g) => `  ${g.path} depth=${g.depth}: ${g.note}`).join('\n')}\n`);

    const results: Results = {
      date: new Date().toISOString().slice(0, 10), db, dbVersion, machine, commit: gitCommit(),
      dataset: { scale: seed ? opts.scale : 'existing', seeded: Boolean(seed), seedSeconds: seed?.seconds ?? null, seedObjectsPerSecond: seed?.objectsPerSecond ?? null, seedPhaseSeconds: seed?.phaseSeconds, counts },
      settings: { ...opts.settings, bulkSize: opts.bulkSize, bulkRounds: opts.rounds, serverEnv },
      floor: null, reads: [], bulk: [], csv: [], guard, guardOk, writeStatements, uiPages,
      server: { startRssMb, peakRssMb: Math.max(startRssMb, seedPeak ?? 0), seedPeakRssMb: seedPeak }, totalSeconds: 0, notes,
    };
    if (!opts.guardOnly) await measureAll({ server, client, catalog, fixtures, scenarios, statements, opts, results });
    // Steady: the service at rest, 5 s after the last request (IDLE_GC_MS gives memory back after 2 s).
    if (!opts.guardOnly) await new Promise((resolve) => setTimeout(resolve, 5000));
    results.server.endRssMb = readMemory(server.pid)?.rssMb ?? NaN;
    results.totalSeconds = (performance.now() - started) / 1000;
    results.machine.loadAtEnd = os.loadavg()[0];
    const peaks = [...results.reads.map((r) => r.peakRssMb), results.mixed?.peakRssMb ?? 0, ...results.bulk.map((b) => b.peakRssMb), ...results.csv.map((c) => c.rssPeakMb)];
    results.server.peakRssMb = Math.max(results.server.peakRssMb, ...peaks);
    const md = toMarkdown(results);
    process.stdout.write(`\n${md}`);
    if (!opts.guardOnly) log(`\nwritten ${writeResults(opts.out, results)} (+ .json)`);
    const mixedFailed = results.mixed && results.mixed.errors + results.mixed.non2xx + results.mixed.timeouts > 0 ? ['the mixed load'] : [];
    const erred = [...mixedFailed, ...results.reads.filter((r) => r.errors + r.non2xx + r.timeouts > 0).map((r) => r.name), ...results.csv.filter((c) => c.error).map((c) => `CSV export of ${c.path}`)];
    if (erred.length) log(`\n!!! requests failed under load: ${erred.join(', ')}`);
    return guardOk && !erred.length ? 0 : 1;
  } catch (err) {
    log(`service output (last lines):\n${server.output().split('\n').slice(-30).join('\n')}`);
    throw err;
  } finally {
    await server.stop();
    await drop();
  }
}

async function measureAll(c: { server: ChildServer; client: ApiClient; catalog: Catalog; fixtures: Awaited<ReturnType<typeof loadFixtures>>; scenarios: ReadScenario[]; statements: Map<string, { statements: number; cpuMs: number }>; opts: Options; results: Results }): Promise<void> {
  const { server, client, opts, results } = c;
  log('floor: bare Fastify route...');
  const floors = await FloorServer.start(opts.settings);
  try {
    results.floor = await measureFloor(server, floors);
    for (const s of c.scenarios) {
      log(`load: ${s.name}...`);
      const measured = await measureRead(server, s, opts.settings, c.statements.get(s.name) ?? null);
      if (typeof measured === 'string') {
        results.notes.push(measured);
        continue;
      }
      const { row, body } = measured;
      if (row.list && row.rps > 0) {
        const floor = await floors.figuresFor(body);
        Object.assign(row, { floorRps: floor.rps, floorRatio: floor.rps / row.rps });
      }
      results.reads.push(row);
    }
  } finally {
    await floors.stop();
  }
  log('load: detail GET while a CPU-bound job runs...');
  const duringJob = await measureDetailDuringJob({ base: server.url, client, detail: c.scenarios.find((s) => s.name === 'location detail GET, uncached'), headers: HEADERS, settings: opts.settings });
  if (typeof duringJob === 'string') results.notes.push(duringJob);
  else results.reads.push(duringJob);
  if (opts.mixed.duration > 0) {
    log(`mixed load (${opts.mixed.duration} s)...`);
    const mem = watchMemory(server.pid);
    const mixed = await measureMixed({ base: server.url, client, reads: c.scenarios, fx: c.fixtures, headers: HEADERS, settings: opts.mixed });
    results.mixed = { ...mixed, peakRssMb: mem.stop().peakMb };
  }
  log('bulk writes...');
  const bulk = await measureBulk(client, c.fixtures, { pid: server.pid, size: opts.bulkSize, rounds: opts.rounds });
  log('bulk create with a webhook...');
  const hooked = await measureBulkWithWebhook(client, c.fixtures, { pid: server.pid, size: opts.bulkSize, rounds: opts.rounds });
  const afterLocations = bulk.rows.findIndex((r) => r.name === `bulk create ${opts.bulkSize} locations`) + 1;
  results.bulk = afterLocations > 0 ? [...bulk.rows.slice(0, afterLocations), ...hooked.rows, ...bulk.rows.slice(afterLocations)] : [...bulk.rows, ...hooked.rows];
  results.notes.push(...bulk.notes, ...hooked.notes);
  const rows = (p: string) => results.dataset.counts[countKey(p)] ?? 0;
  const exports = ['ipam/ip-addresses', 'dcim/interfaces', 'dcim/locations', 'tenancy/tenants']
    .filter((p) => c.catalog.has(...(p.split('/') as [string, string])) && rows(p) > 0)
    .sort((a, b) => rows(b) - rows(a))
    .map((p) => `/api/${p}/`);
  for (const p of exports) {
    const support = await csvSupported(server.url, p);
    if (!support.ok) {
      results.notes.push(support.note);
      break;
    }
    log(`CSV export ${p}...`);
    const row = await exportCsv(server.url, p, { pid: server.pid, timeoutSeconds: opts.csvTimeout });
    results.csv.push(row);
    if (row.error) {
      const alive = await fetch(`${server.url}/health/`).then((r) => r.status, () => 'no answer');
      results.notes.push(`CSV export of ${p} failed after ${row.seconds.toFixed(1)} s with ${row.rows} rows streamed: ${row.error}; /health/ then answered ${alive}; service output: ${server.output().trim().slice(-500) || 'none'}`);
    } else if (!row.complete) results.notes.push(`CSV export of ${p} cut off after ${opts.csvTimeout} s with ${row.rows} rows streamed (--csv-timeout)`);
  }
}

main().then((code) => process.exit(code), (err) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exit(1);
});
