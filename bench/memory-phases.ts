/**
 * Issue 22's memory figures without the whole bench: the service as the bench starts it (a child
 * process on an already seeded database, the bench's environment), driven through the bench's
 * phases in short form (the read mix, the CPU-bound job, the mixed load, bulk writes with and
 * without a webhook, the CSV exports), with its RSS after each phase and its peak over it.
 *
 *   npx tsx bench/memory-phases.ts            # bench/.data/bench.sqlite3 (or DATABASE_URL), seeded
 *   DURATION=2 ONLY=reads,csv npx tsx bench/memory-phases.ts
 *
 * `DURATION` (s per read scenario, default 1), `ROUNDS` (bulk rounds, 1), `ONLY` (a comma list
 * of phases: seed, reads, job, mixed, bulk, webhook, csv), `IDLE` (s of quiet before the last
 * reading, 5), `SEED` (small, medium...: on an empty database, first seeds it through the
 * service's bulk API as `npm run bench -- --fresh` does, the "seed" phase).
 * Each reading gives the RSS, its anonymous and file-backed parts (/proc/<pid>/smaps_rollup) and
 * the thread count: a job thread (about 80 MB while it lives) shows as threads above the start's;
 * the last reading ("steady") waits for job threads to end first (JOBS_THREAD_IDLE_MS, 30 s).
 * Extra environment for the service passes through (RESPONSE_CACHE_MB=..., SQLITE_CACHE_MB=...,
 * NODE_OPTIONS=..., MALLOC_*=...). With `PROBE=<file>` the service also loads that module with
 * `--import`; it is sent SIGUSR2 after each phase, with the phase's name written to `PROBE_CMD`
 * first (`{"tag": phase, "gc": PROBE_GC === '1'}`; default bench/.data/memory-probe-cmd.json).
 * `PROBE=bench/lib/memory-probe.mjs` is the one kept here: it appends a line per phase to
 * PROBE_OUT (default bench/.data/memory-probe.jsonl, emptied at the start) with RssAnon / RssFile /
 * RssShmem, the V8 heap's spaces and resident MB per kind of mapping (the main C allocator arena
 * `[heap]`, other anonymous memory, files, database files), printed as a table at the end.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ApiClient } from './lib/client.js';
import { discover } from './lib/catalog.js';
import { BENCH_DIR, BENCH_TOKEN, BENCH_USER, DATA_DIR, benchDatabaseUrl } from './lib/env.js';
import { loadFixtures } from './lib/fixtures.js';
import { drive } from './lib/load.js';
import { mainThreadMs, readMappings, readMemory, threadCount, watchMemory } from './lib/memory.js';
import { readScenarios, countKey, DATASET_LISTS } from './lib/scenarios.js';
import { startChild } from './lib/server.js';
import { measureDetailDuringJob } from './lib/during-job.js';
import { measureMixed } from './lib/mixed.js';
import { measureBulk } from './lib/bulk.js';
import { measureBulkWithWebhook } from './lib/bulk-webhook.js';
import { exportCsv } from './lib/csv-export.js';
import { toScale } from './lib/scales.js';
import { seedDatabase } from './seed.js';

const HEADERS = { authorization: `Token ${BENCH_TOKEN}`, accept: 'application/json' };
const duration = Number(process.env.DURATION ?? 1);
const rounds = Number(process.env.ROUNDS ?? 1);
const only = process.env.ONLY ? new Set(process.env.ONLY.split(',')) : null;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const probeCmd = process.env.PROBE_CMD ?? path.join(DATA_DIR, 'memory-probe-cmd.json');
const probeOut = process.env.PROBE_OUT ?? path.join(DATA_DIR, 'memory-probe.jsonl');

async function main(): Promise<void> {
  const nodeOptions = [process.env.NODE_OPTIONS, process.env.PROBE ? `--import=${path.resolve(process.env.PROBE)}` : ''].filter(Boolean).join(' ');
  if (process.env.PROBE) fs.rmSync(probeOut, { force: true });
  const env = { PROBE_CMD: probeCmd, PROBE_OUT: probeOut, LOG_LEVEL: 'warn', SUPERUSER_NAME: BENCH_USER, SUPERUSER_API_TOKEN: BENCH_TOKEN, MAX_PAGE_SIZE: '0', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', JOBS_ROOT: path.join(BENCH_DIR, 'jobs'), DATABASE_URL: benchDatabaseUrl(), NODE_OPTIONS: nodeOptions };
  console.log(`load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const server = await startChild({ script: 'src/server.ts', env, healthPath: '/health/' });
  const rows: string[] = [];
  let overall = 0;
  const report = async (phase: string, peakMb: number, cpuMs = NaN) => {
    if (process.env.PROBE) fs.writeFileSync(probeCmd, JSON.stringify({ tag: phase, gc: process.env.PROBE_GC === '1', snap: (process.env.PROBE_SNAP ?? '').split(',').includes(phase) }));
    if (process.env.PROBE) process.kill(server.pid, 'SIGUSR2');
    const now = readMemory(server.pid)?.rssMb ?? NaN;
    const maps = readMappings(server.pid);
    overall = Math.max(overall, peakMb, now);
    const where = maps ? `  (anon ${maps.anonMb.toFixed(0)}, file ${maps.fileMb.toFixed(0)}; ${threadCount(server.pid)} threads)` : '';
    const line = `${phase.padEnd(28)} RSS ${now.toFixed(0).padStart(4)} MB  peak ${peakMb.toFixed(0).padStart(4)} MB${where}${Number.isNaN(cpuMs) ? '' : `  main thread ${cpuMs.toFixed(0)} CPU ms`}`;
    rows.push(line);
    console.log(line);
    await pause(300);
  };
  const phase = async (name: string, run: () => Promise<unknown>) => {
    if (only && !only.has(name)) return;
    const mem = watchMemory(server.pid, 20);
    const cpu = mainThreadMs(server.pid);
    await run();
    await report(name, mem.stop().peakMb, mainThreadMs(server.pid) - cpu);
  };
  try {
    await report('started', readMemory(server.pid)?.hwmMb ?? NaN);
    const startThreads = threadCount(server.pid);
    const client = new ApiClient(server.url, BENCH_TOKEN);
    if (process.env.SEED) await phase('seed', () => seedDatabase(client, { scale: toScale(process.env.SEED ?? '') }));
    const catalog = await discover(client);
    const fixtures = await loadFixtures(client, catalog);
    const counts: Record<string, number> = {};
    for (const p of DATASET_LISTS) if (catalog.has(...(p.split('/') as [string, string]))) counts[countKey(p)] = await client.count(`/api/${p}/`);
    const { scenarios } = readScenarios(catalog, fixtures, counts);
    const settings = { connections: 10, duration, warmup: 0 };
    await phase('reads', async () => {
      for (const s of scenarios) await drive({ base: server.url, paths: s.paths, headers: { ...HEADERS, ...s.headers }, settings, post: s.post });
    });
    await phase('job', () => measureDetailDuringJob({ base: server.url, client, detail: scenarios.find((s) => s.name === 'location detail GET, uncached'), headers: HEADERS, settings }));
    await phase('mixed', () => measureMixed({ base: server.url, client, reads: scenarios, fx: fixtures, headers: HEADERS, settings: { connections: 8, duration: duration * 5, warmup: 0 } }));
    await phase('bulk', () => measureBulk(client, fixtures, { pid: server.pid, size: 1000, rounds }));
    await phase('webhook', () => measureBulkWithWebhook(client, fixtures, { pid: server.pid, size: 1000, rounds }));
    await phase('csv', async () => {
      for (const p of ['/api/dcim/interfaces/', '/api/ipam/ip-addresses/', '/api/dcim/locations/', '/api/tenancy/tenants/']) {
        const row = await exportCsv(server.url, p, { pid: server.pid, timeoutSeconds: 120 });
        console.log(`  ${p}: ${row.rows} rows in ${row.seconds.toFixed(1)} s`);
      }
    });
    // Steady: job threads have ended (JOBS_THREAD_IDLE_MS; a live one is reported apart), then
    // IDLE s of quiet, so the quiet-moment collection (IDLE_GC_MS) has run.
    const jobThreads = await threadsBackTo(server.pid, startThreads, 45_000);
    if (jobThreads > 0) await report(`job threads alive (${jobThreads})`, readMemory(server.pid)?.rssMb ?? NaN);
    await pause(Number(process.env.IDLE ?? 5) * 1000);
    await report('steady', readMemory(server.pid)?.rssMb ?? NaN);
    console.log(`peak over the run ${overall.toFixed(0)} MB; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    if (process.env.PROBE) printProbe(probeOut);
  } finally {
    await server.stop();
  }
}

/** The probe's lines (bench/lib/memory-probe.mjs) as a table, one row per phase, in MB. */
function printProbe(file: string): void {
  if (!fs.existsSync(file)) return;
  const lines = fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  console.log('\nphase: RssAnon RssFile RssShmem | V8 heap used/committed, external | [heap] arena, other anon, database files');
  for (const l of lines) {
    const maps = (l.mappings ?? {}) as Record<string, number>;
    console.log(`${String(l.tag).padEnd(10)} ${l.anon} ${l.file} ${l.shmem} | ${l.heapUsed}/${l.heapTotal}, ${l.external} | ${maps['[heap]'] ?? 0}, ${maps['[anon]'] ?? 0}, ${maps.database ?? 0}  ${JSON.stringify(l.spaces)}`);
  }
}

/** Waits up to `maxMs` for the process's thread count to fall back to `threads`; the threads still above it. */
async function threadsBackTo(pid: number, threads: number, maxMs: number): Promise<number> {
  const deadline = Date.now() + maxMs;
  while (threadCount(pid) > threads && Date.now() < deadline) await pause(500);
  return Math.max(0, threadCount(pid) - threads);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
