/**
 * Scale phase (issue 22): how the cost of a freshly rendered request changes from one data set
 * to a larger one (medium to xlarge). For each database given, the service is built in this
 * process (no HTTP, no client on the other end of a socket) and each scenario is sent N times
 * through inject() with `Cache-Control: no-cache`; the figure is this process's CPU time per
 * request (process.cpuUsage: the service and, on SQLite, the database's work; a PostgreSQL
 * server's work is not in it, so wall ms are reported beside it). CPU time holds on a busy
 * machine where req/s does not.
 *
 *   node --import tsx bench/scale-phase.ts [--n 100] [--csv 100000] [--out bench/results/x.md] [--urls URL_SMALL,URL_LARGE]
 *
 * URLs are DATABASE_URLs of data sets seeded with `npm run seed -- --scale <name>` (default:
 * sqlite:bench/.data/medium.sqlite3 and sqlite:bench/.data/xlarge.sqlite3). Besides the
 * requests it measures the table's exact count statement alone, the CSV export (the keyset
 * path, streamed over loopback) and a bulk create of 1 000 interfaces (deleted afterwards).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { parseArgs } from './lib/args.js';
import { BENCH_TOKEN, DATA_DIR, dbKind, redact } from './lib/env.js';
import { buildBenchApp } from './lib/local-app.js';
import type { FastifyInstance } from 'fastify';

type Figure = { label: string; cpuMs: number; wallMs: number; status: number; note?: string };
type SizeReport = { url: string; counts: Record<string, number>; figures: Figure[]; load: string };

const HEADERS = { authorization: `Token ${BENCH_TOKEN}`, accept: 'application/json', 'cache-control': 'no-cache', 'content-type': 'application/json' };

function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

/** The checked-out commit, for the report's header. */
function currentCommit(): string {
  try { return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim(); } catch { return 'unknown'; }
}

function loadAverage(): string {
  return os.loadavg().map((l) => l.toFixed(2)).join(' / ');
}

/** `n` fresh GETs of `url` after `warm` unmeasured ones: CPU and wall ms per request. */
async function measureGet(app: FastifyInstance, label: string, url: string, n: number, warm = 5): Promise<Figure> {
  let status = 0;
  for (let i = 0; i < warm; i += 1) status = (await app.inject({ method: 'GET', url, headers: HEADERS })).statusCode;
  const wall = performance.now();
  const cpu = process.cpuUsage();
  for (let i = 0; i < n; i += 1) status = (await app.inject({ method: 'GET', url, headers: HEADERS })).statusCode;
  return { label, cpuMs: cpuMs(cpu) / n, wallMs: (performance.now() - wall) / n, status };
}

async function getJson<T>(app: FastifyInstance, url: string): Promise<T> {
  const res = await app.inject({ method: 'GET', url, headers: HEADERS });
  if (res.statusCode !== 200) throw new Error(`GET ${url} -> ${res.statusCode}: ${res.body.slice(0, 200)}`);
  return JSON.parse(res.body) as T;
}

/** The exact count statement of a table alone (what every page's `count` costs), `n` times. */
async function measureCount(app: FastifyInstance, table: string, n: number, filter?: [string, string]): Promise<Figure> {
  const db = (app as unknown as { services: { dialect: { db: import('kysely').Kysely<any> } } }).services.dialect.db;
  const where = filter === undefined ? sql`` : sql` where ${sql.ref(filter[0])} = ${filter[1]}`;
  const once = () => sql<{ n: number }>`select count(*) as n from ${sql.table(table)}${where}`.execute(db);
  await once();
  const wall = performance.now();
  const cpu = process.cpuUsage();
  for (let i = 0; i < n; i += 1) await once();
  return { label: `count(*) of ${table}${filter === undefined ? '' : ` where ${filter[0]} = '${filter[0] === 'name' ? filter[1] : '…'}'`} alone`, cpuMs: cpuMs(cpu) / n, wallMs: (performance.now() - wall) / n, status: 200 };
}

/** The whole list as CSV over loopback (streamed, never held): rows per second of wall and of CPU. */
async function measureCsv(app: FastifyInstance, list: string, limitRows: number): Promise<Figure> {
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const wall = performance.now();
  const cpu = process.cpuUsage();
  // The export streams the whole list whatever `limit` says: the client stops reading after `limitRows` rows.
  const abort = new AbortController();
  const res = await fetch(`${base}${list}?format=csv&limit=0`, { headers: { authorization: HEADERS.authorization }, signal: abort.signal });
  let lines = 0;
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      for (const b of chunk) if (b === 10) lines += 1;
      if (limitRows > 0 && lines > limitRows) abort.abort();
    }
  } catch (err) {
    if (!abort.signal.aborted) throw err;
  }
  const ms = performance.now() - wall;
  const spent = cpuMs(cpu);
  const rows = Math.max(0, lines - 1);
  if (res.status !== 200 || rows === 0) return { label: `CSV export ${list}: ${res.status}, ${rows} rows`, cpuMs: NaN, wallMs: NaN, status: res.status, note: 'export failed' };
  return { label: `CSV export ${list} (${rows.toLocaleString('en')} rows; ms per 1 000 rows)`, cpuMs: (spent / rows) * 1000, wallMs: (ms / rows) * 1000, status: res.status, note: `${Math.round(rows / (ms / 1000)).toLocaleString('en')} rows/s wall, ${Math.round(rows / (spent / 1000)).toLocaleString('en')} rows/s of CPU (client's counting included)` };
}

/** Bulk create of 1 000 interfaces on one device (with the change log), deleted afterwards; `rounds` times. */
async function measureBulk(app: FastifyInstance, device: string, rounds: number): Promise<Figure> {
  let [cpu, wall, status] = [0, 0, 0];
  for (let r = 0; r < rounds + 1; r += 1) {
    const body = Array.from({ length: 1000 }, (_, i) => ({ device, name: `scale-${process.pid}-${r}-${i}`, type: '1000base-t', status: { name: 'Active' } }));
    const payload = JSON.stringify(body);
    const t = performance.now();
    const c = process.cpuUsage();
    const res = await app.inject({ method: 'POST', url: '/api/dcim/interfaces/', headers: HEADERS, payload });
    if (r > 0) [cpu, wall] = [cpu + cpuMs(c), wall + performance.now() - t];
    status = res.statusCode;
    if (res.statusCode !== 201) throw new Error(`bulk create -> ${res.statusCode}: ${res.body.slice(0, 300)}`);
    const ids = (JSON.parse(res.body) as { id: string }[]).map((o) => ({ id: o.id }));
    const del = await app.inject({ method: 'DELETE', url: '/api/dcim/interfaces/', headers: HEADERS, payload: JSON.stringify(ids) });
    if (del.statusCode !== 204) throw new Error(`bulk delete -> ${del.statusCode}`);
  }
  return { label: 'bulk create 1 000 interfaces (per request)', cpuMs: cpu / rounds, wallMs: wall / rounds, status, note: `${Math.round(1000 / (wall / rounds / 1000)).toLocaleString('en')} objects/s wall` };
}

/** One open data set: its service, list sizes and the ids the scenarios need. */
type DataSet = { url: string; app: FastifyInstance; counts: Record<string, number>; iface: { id: string; device: { id: string } }; ip: { id: string }; device: { name: string }; dnsName: string };

async function openDataSet(url: string): Promise<DataSet> {
  const app = await buildBenchApp(url, { migrate: false });
  await app.ready();
  const counts: Record<string, number> = {};
  for (const l of ['dcim/devices', 'dcim/interfaces', 'ipam/prefixes', 'ipam/ip-addresses']) counts[l] = (await getJson<{ count: number }>(app, `/api/${l}/?limit=1`)).count;
  const iface = (await getJson<{ results: DataSet['iface'][] }>(app, `/api/dcim/interfaces/?limit=1&offset=${Math.floor(counts['dcim/interfaces'] / 2)}`)).results[0];
  const ip = (await getJson<{ results: DataSet['ip'][] }>(app, `/api/ipam/ip-addresses/?limit=1&offset=${Math.floor(counts['ipam/ip-addresses'] / 2)}`)).results[0];
  const device = (await getJson<{ results: DataSet['device'][] }>(app, `/api/dcim/devices/?limit=1&offset=${Math.floor(counts['dcim/devices'] / 2)}`)).results[0];
  // An address the seed gave a DNS name (half of them have one), from the middle of the list.
  const named = await getJson<{ results: { dns_name: string }[] }>(app, `/api/ipam/ip-addresses/?limit=20&offset=${Math.floor(counts['ipam/ip-addresses'] / 2)}`);
  const dnsName = named.results.find((r) => r.dns_name)?.dns_name ?? '';
  return { url, app, counts, iface, ip, device, dnsName };
}

/** A measurement on one data set, `times` repetitions (a round). */
type Scenario = { label: string; share: number; measure(d: DataSet, times: number): Promise<Figure> };

function scenarios(csvRows: number): Scenario[] {
  const get = (label: string, url: (d: DataSet) => string, share = 1): Scenario => ({ label, share, measure: (d, times) => measureGet(d.app, label, url(d), times, 2) });
  const count = (table: string, filter?: (d: DataSet) => [string, string]): Scenario => ({ label: '', share: 0.2, measure: (d, times) => measureCount(d.app, table, times, filter?.(d)) });
  return [
    get('interfaces, first page (limit 50)', () => '/api/dcim/interfaces/?limit=50'),
    get('interfaces, first page, depth 1', () => '/api/dcim/interfaces/?limit=50&depth=1'),
    get('interfaces filtered name=Ethernet1/1 (limit 50)', () => '/api/dcim/interfaces/?limit=50&name=Ethernet1/1'),
    get('devices filtered name= (one match, limit 50)', (d) => `/api/dcim/devices/?limit=50&name=${encodeURIComponent(d.device.name)}`),
    get('IP addresses filtered dns_name= (limit 50)', (d) => `/api/ipam/ip-addresses/?limit=50&dns_name=${encodeURIComponent(d.dnsName)}`),
    get('interfaces of one device (device_id=)', (d) => `/api/dcim/interfaces/?limit=50&device_id=${d.iface.device.id}`),
    get('IP addresses, first page (limit 50)', () => '/api/ipam/ip-addresses/?limit=50'),
    get('prefixes net_host_contained=10.5.0.0/16', () => '/api/ipam/prefixes/?limit=50&net_host_contained=10.5.0.0/16'),
    get('IP addresses in prefix 10.0.7.0/24 (prefix=)', () => '/api/ipam/ip-addresses/?limit=50&prefix=10.0.7.0/24'),
    get('interface detail GET', (d) => `/api/dcim/interfaces/${d.iface.id}/`),
    get('IP address detail GET', (d) => `/api/ipam/ip-addresses/${d.ip.id}/`),
    get('interfaces at offset 100 000 (limit 50)', () => '/api/dcim/interfaces/?limit=50&offset=100000', 0.1),
    count('dcim_interface'),
    count('dcim_interface', () => ['name', 'Ethernet1/1']),
    count('ipam_ipaddress'),
    count('ipam_ipaddress', (d) => ['dns_name', d.dnsName]),
    { label: 'bulk create', share: 0, measure: (d) => measureBulk(d.app, d.iface.device.id, 1) },
    { label: 'CSV', share: 0, measure: (d) => measureCsv(d.app, '/api/dcim/interfaces/', csvRows) },
  ];
}

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Every scenario in `rounds` rounds, each round on every data set in turn (interleaved, so a
 * burst of other work on the machine hits both sizes alike); the median round is reported.
 */
async function measureAll(sets: DataSet[], n: number, rounds: number, csvRows: number): Promise<SizeReport[]> {
  const figures: Figure[][] = sets.map(() => []);
  const loads: string[] = [];
  for (const sc of scenarios(csvRows)) {
    const perRound: Figure[][] = sets.map(() => []);
    const times = Math.max(3, Math.round((n * sc.share) / rounds));
    const r = sc.share === 0 ? (sc.label === 'CSV' ? 1 : 3) : rounds;
    for (let i = 0; i < r; i += 1) for (const [k, d] of sets.entries()) perRound[k].push(await sc.measure(d, times));
    for (const [k, list] of perRound.entries()) {
      const cpu = median(list.map((f) => f.cpuMs));
      const pick = list.find((f) => f.cpuMs === cpu) ?? list[0];
      figures[k].push({ ...pick, cpuMs: cpu, wallMs: median(list.map((f) => f.wallMs)) });
    }
    loads.push(loadAverage());
    process.stderr.write(`  ${figures[0].at(-1)?.label}: ${figures.map((f) => f.at(-1)?.cpuMs.toFixed(2)).join(' / ')} CPU ms (load ${loadAverage()})\n`);
  }
  return sets.map((d, k) => ({ url: d.url, counts: d.counts, figures: figures[k], load: loads.at(-1) ?? '' }));
}

function fmt(x: number, digits = 2): string {
  return x.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

function table(reports: SizeReport[]): string {
  const [a, b] = reports;
  const rows = a.figures.map((f, i) => {
    const g = b?.figures[i];
    const ratio = g ? `${fmt(g.cpuMs / f.cpuMs)}×` : '';
    const notes = [f.note, g?.note].filter(Boolean).join('; ');
    return `| ${f.label} | ${fmt(f.cpuMs)} | ${fmt(f.wallMs)} | ${g ? fmt(g.cpuMs) : ''} | ${g ? fmt(g.wallMs) : ''} | ${ratio} | ${notes} |`;
  });
  const head = `| request (fresh, in process) | ${label(a)} CPU ms | wall ms | ${b ? label(b) : ''} CPU ms | wall ms | CPU ratio | notes |\n|---|---:|---:|---:|---:|---:|---|`;
  return [head, ...rows].join('\n');
}

function label(r: SizeReport): string {
  return path.basename(r.url).replace(/\.sqlite3$/, '').replace(/^.*\//, '');
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), { n: 'string', out: 'string', csv: 'string', urls: 'string', rounds: 'string' });
  const urls = args.urls ? String(args.urls).split(',') : [`sqlite:${path.join(DATA_DIR, 'medium.sqlite3')}`, `sqlite:${path.join(DATA_DIR, 'xlarge.sqlite3')}`];
  const n = Number(args.n ?? 100);
  const csvRows = Number(args.csv ?? 100000);
  const rounds = Number(args.rounds ?? 5);
  const sets: DataSet[] = [];
  for (const url of urls) sets.push(await openDataSet(url));
  process.stderr.write(`measuring ${urls.map(redact).join(' and ')}, ${rounds} interleaved rounds (load ${loadAverage()})\n`);
  const startLoad = loadAverage();
  const reports = await measureAll(sets, n, rounds, csvRows).finally(() => Promise.all(sets.map((d) => d.app.close())));
  const md = [
    `Scale phase, ${dbKind(urls[0])}, ${new Date().toISOString().slice(0, 16)}Z, N=${n} requests per scenario in ${rounds} interleaved rounds (median round), commit ${process.env.COMMIT ?? currentCommit()}; load average (1/5/15 min) ${startLoad} at the start`,
    '',
    ...reports.map((r) => `- ${label(r)} (${redact(r.url)}): ${Object.entries(r.counts).map(([k, v]) => `${k} ${v.toLocaleString('en')}`).join(', ')}; load average at the end ${r.load}`),
    '',
    table(reports),
    '',
  ].join('\n');
  console.log(md);
  if (args.out) fs.appendFileSync(String(args.out), md + '\n');
}

main().catch((err) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exit(1);
});
