import fs from 'node:fs';
import path from 'node:path';
import type { BulkRow } from './bulk.js';
import type { CsvRow } from './csv-export.js';
import type { LoadFigures, LoadSettings } from './load.js';
import type { MixedRow } from './mixed.js';
import type { GuardRow } from './query-guard.js';
import { targetTable } from './targets.js';
import type { WriteStatementsRow } from './write-statements.js';
import { UI_PAGE_BUDGET_MS, uiPagesTable, type UiPageRow } from './ui-pages.js';

export type ReadRow = LoadFigures & { name: string; path: string; list: boolean; floorRatio: number | null; floorRps: number | null; statements: number | null; cpuMs: number | null; bytes: number; peakRssMb: number };

export type Results = {
  date: string;
  db: 'sqlite' | 'postgres';
  dbVersion: string;
  machine: { cores: number; cpu: string; memoryGb: number; os: string; node: string; loadAtStart: number; loadAtEnd: number };
  commit: string;
  dataset: { scale: string; seeded: boolean; seedSeconds: number | null; seedObjectsPerSecond: number | null; seedPhaseSeconds?: Record<string, number>; counts: Record<string, number> };
  settings: LoadSettings & { bulkSize: number; bulkRounds: number; serverEnv: Record<string, string> };
  floor: ReadRow | null;
  reads: ReadRow[];
  /** Issue 22's mixed load (null when not run). */
  mixed?: MixedRow | null;
  bulk: BulkRow[];
  csv: CsvRow[];
  guard: GuardRow[];
  guardOk: boolean;
  writeStatements: WriteStatementsRow[];
  /** Issue 23: server time of the web interface's main pages (absent when not measured). */
  uiPages?: UiPageRow[];
  server: { startRssMb: number; peakRssMb: number; seedPeakRssMb: number | null; endRssMb?: number };
  totalSeconds: number;
  notes: string[];
};

/** How the service ran: one child process, or a primary forking N workers (the RSS columns are the primary's). */
function workersText(workers: string | undefined): string {
  return Number(workers ?? 1) > 1 ? `${workers} worker processes sharing the port (WORKERS; RSS figures are the primary process's only)` : 'one child process';
}

const n0 = (x: number) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : '-');
const n1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '-');
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

const isFresh = (x: ReadRow) => x.name.endsWith(', uncached');

/** The reads rendered afresh (`fresh`) or the others (mostly answered from the response cache). */
function readTable(r: Results, fresh: boolean): string[] {
  const lines = ['| scenario | req/s | p50 ms | p99 ms | floor req/s | × floor | SQL/req | CPU ms/req | body | peak RSS MB | errors |', '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|'];
  const row = (x: ReadRow, label = x.name) => lines.push(`| ${label} | ${n0(x.rps)} | ${n1(x.p50)} | ${n1(x.p99)} | ${x.floorRps === null || x.floorRps === undefined ? '' : n0(x.floorRps)} | ${x.floorRatio === null ? '' : `${x.floorRatio.toFixed(1)}×`} | ${x.statements ?? ''} | ${x.cpuMs === null || x.cpuMs === undefined ? '' : n1(x.cpuMs)} | ${kb(x.bytes)} | ${n0(x.peakRssMb)} | ${x.errors + x.non2xx + x.timeouts || ''} |`);
  if (r.floor) row(r.floor, '**floor**: bare Fastify route, same bytes as the locations depth-0 page');
  for (const x of r.reads.filter((y) => isFresh(y) === fresh)) row(x);
  return lines;
}

function mixedTable(r: Results): string[] {
  const m = r.mixed;
  if (!m) return ['Not measured.'];
  return [
    '| load | req/s | p50 ms | p99 ms | mean ms | requests | reads / writes | errors | peak RSS MB |', '|---|---:|---:|---:|---:|---:|---|---:|---:|',
    `| ${m.name} | ${n0(m.rps)} | ${n1(m.p50)} | ${n1(m.p99)} | ${n1(m.mean)} | ${n0(m.requests)} | ${n0(m.reads)} / ${n0(m.writes)} | ${m.errors + m.non2xx + m.timeouts} | ${n0(m.peakRssMb)} |`,
    '', 'Reads: the GET scenarios of the read mix in turn (no `Cache-Control` header: every write drops the response cache, so most render afresh); writes: a PATCH of one location\'s description and a POST of one tenant, alternating, each with its change record.',
  ];
}

/** The Markdown report: machine, data set, then one table per kind of figure. */
export function toMarkdown(r: Results): string {
  const m = r.machine;
  const counts = Object.entries(r.dataset.counts).map(([k, v]) => `${k} ${v.toLocaleString('en-US')}`).join(', ');
  const out = [
    `# Benchmark ${r.date}, ${r.db}`,
    '',
    `- machine: ${m.cores} cores (${m.cpu}), ${m.memoryGb.toFixed(1)} GB RAM, ${m.os}; Node ${m.node}; ${r.db} ${r.dbVersion}; commit ${r.commit}`,
    `- 1-minute load average ${m.loadAtStart.toFixed(2)} before the run, ${m.loadAtEnd.toFixed(2)} at its end (other work on the machine skews every figure)`,
    `- data set: ${r.dataset.scale}${r.dataset.seeded ? `, seeded in this run in ${n1(r.dataset.seedSeconds ?? NaN)} s (${n0(r.dataset.seedObjectsPerSecond ?? NaN)} objects/s through the bulk API)` : ', already present'}: ${counts}`,
    `- load: autocannon in the harness process, ${r.settings.connections} connections, ${r.settings.warmup} s warm-up then ${r.settings.duration} s per scenario, loopback; the service is ${workersText(r.settings.serverEnv.WORKERS)} (\`sh scripts/start.sh\` as \`npm start\`: \`node build/server.js\`, src/ compiled by scripts/build-server.mjs)`,
    `- the service keeps rendered GET bodies until the next write (response cache): rows without "uncached" are mostly served from it after the first request; "uncached" rows send \`Cache-Control: no-cache\` so every request renders afresh; SQL/req and CPU ms/req always describe a fresh render`,
    `- × floor = floor req/s ÷ scenario req/s, where each list scenario's floor is a bare Fastify route in its own process sending that scenario's own response bytes, driven by the same client just after it (1.0× would be as fast as the bare route); SQL/req is counted in-process with \`dialect.queryCount()\`; CPU ms/req is this process's CPU time per request through inject(), the median of three batches of 20 (SQLite's work included, a PostgreSQL server's not), steadier than req/s on a busy machine`,
    `- server RSS: ${n0(r.server.startRssMb)} MB after start, ${n0(r.server.endRssMb ?? NaN)} MB at the end, ${n0(r.server.peakRssMb)} MB peak over the run${r.server.seedPeakRssMb ? ` (${n0(r.server.seedPeakRssMb)} MB peak while seeding)` : ''}; whole run ${n0(r.totalSeconds)} s`,
    '',
    '## Targets',
    '',
    ...targetTable(r),
    '',
    '## Reads rendered afresh (`Cache-Control: no-cache`)',
    '',
    ...readTable(r, true),
    '',
    '## Mixed load',
    '',
    ...mixedTable(r),
    '',
    '## Reads answered mostly from the response cache',
    '',
    ...readTable(r, false),
    '',
    `## Bulk writes (one request of ${r.settings.bulkSize} objects, median of ${r.settings.bulkRounds} after a warm-up round, change log included)`,
    '',
    '| operation | objects/s | median ms | rounds ms | peak RSS MB |',
    '|---|---:|---:|---|---:|',
    ...r.bulk.map((b) => `| ${b.name} | ${n0(b.objectsPerSecond)} | ${n0(b.medianMs)} | ${b.roundsMs.map(n0).join(', ')} | ${n0(b.peakRssMb)} |`),
    '',
    '## CSV export (whole list, streamed)',
    '',
    ...(r.csv.length
      ? ['| list | rows | size | seconds | rows/s | RSS before MB | RSS peak MB | growth MB |', '|---|---:|---:|---:|---:|---:|---:|---:|',
        ...r.csv.map((c) => `| ${c.path}${c.complete ? '' : c.error ? ' (failed, see notes)' : ' (cut off)'} | ${n0(c.rows)} | ${kb(c.bytes)} | ${c.seconds.toFixed(2)} | ${n0(c.rowsPerSecond)} | ${n0(c.rssBeforeMb)} | ${n0(c.rssPeakMb)} | ${n1(c.growthMb)} |`)]
      : ['Not measured (see notes).']),
    '',
    `## Query-count guard: ${r.guardOk ? 'passed' : '**FAILED**'}`,
    '',
    'Statements per list request at limit 10 / 100 / 500 (the count must not grow with the page).',
    '',
    '| list | depth | @10 | @100 | @500 | rows | verdict | note |',
    '|---|---:|---:|---:|---:|---|---|---|',
    ...r.guard.map((g) => `| ${g.path} | ${g.depth} | ${g.statements[10]} | ${g.statements[100]} | ${g.statements[500]} | ${g.rows[10]}/${g.rows[100]}/${g.rows[500]} | ${g.verdict} | ${g.note} |`),
  ];
  if (r.writeStatements.length) {
    out.push('', '## Statements per bulk write (reported, not judged)', '',
      'In-process, one request of 10 and one of 100 objects; "per extra object" 0 means batched statements, 1 or more means per-row statements.', '',
      '| operation | @10 | @100 | per extra object |', '|---|---:|---:|---:|',
      ...r.writeStatements.map((w) => `| ${w.name} | ${w.at10} | ${w.at100} | ${w.perObject.toFixed(1)} |`));
  }
  if (r.uiPages?.length) out.push('', `## Web interface pages (in process through a login, median of 5; budget ${UI_PAGE_BUDGET_MS} ms)`, '', ...uiPagesTable(r.uiPages));
  if (r.notes.length) out.push('', '## Notes', '', ...r.notes.map((n) => `- ${n}`));
  return `${out.join('\n')}\n`;
}

/** Writes `<dir>/<date>-<db>.md` and `.json`; returns the Markdown path. */
export function writeResults(dir: string, r: Results): string {
  fs.mkdirSync(dir, { recursive: true });
  const workers = Number(r.settings.serverEnv.WORKERS ?? 1);
  const base = path.join(dir, `${r.date}-${r.db}${workers > 1 ? `-workers${workers}` : ''}`);
  fs.writeFileSync(`${base}.json`, `${JSON.stringify(r, null, 2)}\n`);
  fs.writeFileSync(`${base}.md`, toMarkdown(r));
  return `${base}.md`;
}
