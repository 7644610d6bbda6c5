/**
 * The mixed load's single writes in process (bench/lib/mixed.ts): a PATCH of one location's
 * description and a POST of one tenant, each with its change record. CPU per request
 * (process.cpuUsage over batches of BATCH requests; median batch), statements per request, and a
 * CPU profile of the measured batches (`OUT=x.cpuprofile`, one file per kind).
 *
 *   node --import tsx bench/profile-single-writes.ts   (DATABASE_URL; BATCHES 15, BATCH 40, WARM 3; ONLY=patch|post)
 * `TRACE=1` (SQLite) prints each kind's statements of one request after the warm-up instead.
 * The tenants it makes are deleted at the end.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { Session } from 'node:inspector/promises';
import { buildBenchApp } from './lib/local-app.js';
import { BENCH_TOKEN, benchDatabaseUrl } from './lib/env.js';

const app = await buildBenchApp(benchDatabaseUrl(), { migrate: false });
const headers = { authorization: `Token ${BENCH_TOKEN}`, 'content-type': 'application/json' };
const batches = Number(process.env.BATCHES ?? 15);
const batch = Number(process.env.BATCH ?? 40);
const run = Date.now().toString(36);

async function call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: string): Promise<any> {
  const res = await app.inject({ method, url, headers, payload });
  if (res.statusCode >= 300) throw new Error(`${method} ${url} -> ${res.statusCode}: ${res.body.slice(0, 500)}`);
  return res.body ? JSON.parse(res.body) : null;
}
const locations = ((await call('GET', '/api/dcim/locations/?limit=200&depth=0')).results as { id: string }[]).map((l) => l.id);
const made: string[] = [];
let n = 0;
const kinds: Record<string, () => Promise<void>> = {
  patch: async () => { n += 1; await call('PATCH', `/api/dcim/locations/${locations[n % locations.length]}/`, JSON.stringify({ description: `single ${run} ${n}` })); },
  post: async () => { n += 1; made.push((await call('POST', '/api/tenancy/tenants/', JSON.stringify({ name: `single-${run}-${n}` }))).id); },
};
const traced: string[] = [];
if (process.env.TRACE) {
  const proto = Object.getPrototypeOf(new Database(':memory:').prepare('select 1'));
  for (const name of ['all', 'run', 'get', 'iterate', 'raw']) {
    const original = proto[name];
    proto[name] = function (this: { source: string }, ...args: unknown[]) {
      traced.push(`${name} ${this.source.slice(0, 300)}`);
      return original.apply(this, args);
    };
  }
}
const session = new Session();
if (process.env.OUT) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
}
for (const [kind, one] of Object.entries(kinds)) {
  if (process.env.ONLY && process.env.ONLY !== kind) continue;
  const perRequest: number[] = [];
  let statements = 0;
  measuring: for (let b = -Number(process.env.WARM ?? 3); b < batches; b += 1) {
    if (b === 0 && process.env.OUT) await session.post('Profiler.start');
    if (b === 0 && process.env.TRACE) {
      traced.length = 0;
      await one();
      console.log(`${kind}:\n  ${traced.join('\n  ')}`);
      break measuring;
    }
    const q0 = app.services.dialect.queryCount();
    const c0 = process.cpuUsage();
    for (let i = 0; i < batch; i += 1) await one();
    const used = process.cpuUsage(c0);
    if (b >= 0) perRequest.push((used.user + used.system) / 1000 / batch);
    statements = (app.services.dialect.queryCount() - q0) / batch;
  }
  if (process.env.OUT) fs.writeFileSync(process.env.OUT.replace('.cpuprofile', `-${kind}.cpuprofile`), JSON.stringify((await session.post('Profiler.stop')).profile));
  if (process.env.TRACE) continue;
  const sorted = [...perRequest].sort((a, b) => a - b);
  console.log(`${kind}: CPU per request median ${sorted[Math.floor(sorted.length / 2)].toFixed(3)} ms, min ${sorted[0].toFixed(3)} ms, ${statements} statements`);
}
for (let i = 0; i < made.length; i += 500) await call('DELETE', '/api/tenancy/tenants/', JSON.stringify(made.slice(i, i + 500).map((id) => ({ id }))));
if (process.env.OUT) session.disconnect();
await app.close();
