/**
 * Bulk create of N rooms (as the bench's "bulk create 1000 locations" row: Room type, Building
 * parent, status, two tags) in process, CPU time of only the POSTs (process.cpuUsage; the
 * DELETE that follows each round is left out), statements per POST, and a CPU profile of only
 * the POSTs (`OUT=x.cpuprofile`).
 *
 *   node --import tsx bench/profile-bulk-create.ts     (the bench database, or DATABASE_URL; ROUNDS 10, SIZE 1000, WARM 3)
 *
 * `ONLY=ip`: N IP addresses instead (Global namespace, status Active, one tag; hosts .251-.254 of
 * 10.0.0.0/24 to 10.0.249.0/24, under the seeded 10.0.0.0/16 container, so SIZE at most 1000).
 */
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import { buildBenchApp } from './lib/local-app.js';
import { BENCH_TOKEN, benchDatabaseUrl } from './lib/env.js';

const app = await buildBenchApp(benchDatabaseUrl(), { migrate: false });
const headers = { authorization: `Token ${BENCH_TOKEN}`, 'content-type': 'application/json' };
const size = Number(process.env.SIZE ?? 1000);
const rounds = Number(process.env.ROUNDS ?? 10);

async function call(method: 'GET' | 'POST' | 'DELETE', url: string, payload?: string): Promise<any> {
  const res = await app.inject({ method, url, headers, payload });
  if (res.statusCode >= 300) throw new Error(`${method} ${url} -> ${res.statusCode}: ${res.body.slice(0, 500)}`);
  return res.body ? JSON.parse(res.body) : null;
}
const all = async (path: string) => (await call('GET', `${path}${path.includes('?') ? '&' : '?'}limit=1000`)).results as any[];
const types = await all('/api/dcim/location-types/');
const room = types.find((t) => t.name === 'Room').id;
const building = types.find((t) => t.name === 'Building').id;
const buildings = (await all(`/api/dcim/locations/?location_type=${building}`)).map((l) => l.id);
const status = (await all('/api/extras/statuses/?name=Active'))[0].id;
const tags = (await all('/api/extras/tags/')).slice(0, 2).map((t) => t.id);
const run = Date.now().toString(36);
const ip = process.env.ONLY === 'ip';
const namespace = ip ? (await all('/api/ipam/namespaces/?name=Global'))[0].id : undefined;
const what = ip ? 'IP addresses' : 'rooms';
const target = ip ? '/api/ipam/ip-addresses/' : '/api/dcim/locations/';
const item = (r: number, i: number) => (ip
  ? { address: `10.0.${Math.floor(i / 4)}.${251 + (i % 4)}/24`, namespace, status, tags: tags.slice(0, 1), description: 'bench' }
  : { name: `pbc-${run}-${r}-${i}`, location_type: room, parent: buildings[i % buildings.length], status, tags, description: 'bench' });
const body = (r: number) => JSON.stringify(Array.from({ length: size }, (_, i) => item(r, i)));

const session = new Session();
const profiling = !!process.env.OUT;
const heap = !!process.env.HEAP;
if (heap) session.connect();
if (profiling) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: Number(process.env.INTERVAL ?? 500) });
}
let cpu = 0;
let wall = 0;
let statements = 0;
const perRound: number[] = [];
for (let r = -Number(process.env.WARM ?? 3); r < rounds; r += 1) {
  const payload = body(r);
  const measured = r >= 0;
  if (measured && profiling) await session.post('Profiler.start');
  if (measured && heap) await session.post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true } as never);
  const q0 = app.services.dialect.queryCount();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const made = await call('POST', target, payload);
  const ms = performance.now() - t0;
  const used = process.cpuUsage(c0);
  const q = app.services.dialect.queryCount() - q0;
  if (measured) {
    if (heap) fs.writeFileSync(process.env.HEAP!.replace('.heapprofile', `-${r}.heapprofile`), JSON.stringify((await session.post('HeapProfiler.stopSampling')).profile));
    if (profiling) fs.writeFileSync(process.env.OUT!.replace('.cpuprofile', `-${r}.cpuprofile`), JSON.stringify((await session.post('Profiler.stop')).profile));
    cpu += (used.user + used.system) / 1000;
    wall += ms;
    statements = q;
    perRound.push((used.user + used.system) / 1000);
  }
  if (!process.env.KEEP) await call('DELETE', target, JSON.stringify(made.map((o: { id: string }) => ({ id: o.id }))));
}
const sorted = [...perRound].sort((a, b) => a - b);
console.log(`create ${size} ${what}: CPU min ${sorted[0].toFixed(1)} ms, median ${sorted[Math.floor(sorted.length / 2)].toFixed(1)} ms, mean ${(cpu / rounds).toFixed(1)} ms, wall mean ${(wall / rounds).toFixed(1)} ms, ${statements} statements; rounds CPU ${perRound.map((m) => m.toFixed(0)).join(' ')}`);
if (profiling || heap) session.disconnect();
await app.close();
