/**
 * Ad-hoc bulk-write profiler (issue 7): wall ms and statements of bulk create, PATCH and DELETE
 * of N locations (rooms under buildings, tenant, tags, custom fields) and N tenants, in process
 * on a seeded bench database. SQL=1 prints the statements that took longest in each request (TOP of
 * them, 8 by default); ONLY=locations|tenants and OPS=create,patch,delete narrow what runs.
 *
 *   node --import tsx bench/profile-writes.ts [N]     (DATABASE_URL: a copy of the bench database)
 */
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { buildBenchApp } from './lib/local-app.js';
import { BENCH_TOKEN } from './lib/env.js';
import type { FastifyInstance } from 'fastify';

const url = process.env.DATABASE_URL || 'sqlite:bench/.data/bench.sqlite3';
const size = Number(process.argv[2] ?? 1000);
const rounds = Number(process.env.ROUNDS ?? 2);
const headers = { authorization: `Token ${BENCH_TOKEN}`, 'content-type': 'application/json' };
const seen = new Map<string, number>();
const spent = new Map<string, number>();
if (process.env.SQL) {
  const proto = Object.getPrototypeOf(new Database(':memory:').prepare('select 1'));
  for (const name of ['all', 'run', 'get', 'iterate']) {
    const original = proto[name];
    proto[name] = function (this: { source: string }, ...args: unknown[]) {
      seen.set(this.source, (seen.get(this.source) ?? 0) + 1);
      const t0 = performance.now();
      try {
        return original.apply(this, args);
      } finally {
        spent.set(this.source, (spent.get(this.source) ?? 0) + performance.now() - t0);
      }
    };
  }
}
const app: FastifyInstance = await buildBenchApp(url);

async function call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<any> {
  const res = await app.inject({ method, url: path, headers, payload: body === undefined ? undefined : JSON.stringify(body) });
  if (res.statusCode >= 300) throw new Error(`${method} ${path} -> ${res.statusCode}: ${res.body.slice(0, 500)}`);
  return res.body ? JSON.parse(res.body) : null;
}

async function timed(label: string, method: 'POST' | 'PATCH' | 'DELETE', path: string, body: unknown): Promise<any> {
  const q0 = app.services.dialect.queryCount();
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const out = await call(method, path, body);
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  const q = app.services.dialect.queryCount() - q0;
  console.log(`${label.padEnd(28)} ${ms.toFixed(0).padStart(6)} ms  ${Math.round(size / (ms / 1000)).toString().padStart(6)} obj/s  CPU ${((cpu.user + cpu.system) / 1000).toFixed(0).padStart(5)} ms  SQL ${q}`);
  for (const [text, ms] of [...spent].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 8))) console.log(`   ${ms.toFixed(1).padStart(7)} ms ${String(seen.get(text)).padStart(5)}x  ${text.slice(0, 160)}`);
  seen.clear();
  spent.clear();
  return out;
}

if (process.env.PRAGMA) await sql.raw(`PRAGMA ${process.env.PRAGMA}`).execute(app.services.dialect.db);
const first = async (path: string) => (await call('GET', `${path}${path.includes('?') ? '&' : '?'}limit=1000`)).results as any[];
/** A small data set of its own when the database has no Room type (e.g. a scratch PostgreSQL database). */
async function setUp(): Promise<void> {
  await call('POST', '/api/dcim/location-types/', { name: 'Site', content_types: ['dcim.location'] });
  await call('POST', '/api/dcim/location-types/', { name: 'Building', parent: 'Site' });
  await call('POST', '/api/dcim/location-types/', { name: 'Room', parent: 'Building' });
  await call('POST', '/api/extras/tags/', ['red', 'blue'].map((name) => ({ name, content_types: ['dcim.location', 'tenancy.tenant'] })));
  await call('POST', '/api/extras/custom-fields/', [{ key: 'bench_owner', label: 'Owner', type: 'text' }, { key: 'bench_cost_center', label: 'Cost center', type: 'integer' }].map((f) => ({ ...f, content_types: ['dcim.location', 'tenancy.tenant'] })));
  await call('POST', '/api/tenancy/tenants/', Array.from({ length: 50 }, (_, i) => ({ name: `tenant ${i}` })));
  const sites = await call('POST', '/api/dcim/locations/', Array.from({ length: 10 }, (_, i) => ({ name: `site ${i}`, location_type: 'Site', status: 'Active' })));
  await call('POST', '/api/dcim/locations/', Array.from({ length: 100 }, (_, i) => ({ name: `building ${i}`, location_type: 'Building', status: 'Active', parent: sites[i % 10].id })));
}

if (!(await first('/api/dcim/location-types/?name=Room')).length) await setUp();
const types = await first('/api/dcim/location-types/');
const room = types.find((t) => t.name === 'Room').id;
const building = types.find((t) => t.name === 'Building').id;
const buildings = (await first(`/api/dcim/locations/?location_type=${building}`)).map((l) => l.id);
const status = (await first('/api/extras/statuses/?name=Active'))[0].id;
const tags = (await first('/api/extras/tags/')).slice(0, 2).map((t) => t.id);
const tenants = (await first('/api/tenancy/tenants/')).slice(0, 50).map((t) => t.id);

const kinds = [
  { label: 'locations', path: '/api/dcim/locations/', body: (name: string, i: number) => ({ name, location_type: room, parent: buildings[i % buildings.length], status, tenant: tenants[i % tenants.length], tags, description: 'bench', custom_fields: { bench_owner: `team ${i % 7}`, bench_cost_center: i } }) },
  { label: 'tenants', path: '/api/tenancy/tenants/', body: (name: string, i: number) => ({ name, tags, description: 'bench', custom_fields: { bench_owner: `team ${i % 7}` } }) },
];
const run = Date.now().toString(36);
const only = process.env.ONLY;
const ops = new Set((process.env.OPS ?? 'create,patch,delete').split(','));
for (let r = 0; r < rounds; r += 1) {
  for (const kind of kinds.filter((k) => !only || k.label === only)) {
    const made = await timed(`create ${size} ${kind.label}`, 'POST', kind.path, Array.from({ length: size }, (_, i) => kind.body(`prof-${run}-${r}-${i}`, i)));
    if (ops.has('patch')) await timed(`PATCH ${size} ${kind.label}`, 'PATCH', kind.path, made.map((o: any) => ({ id: o.id, description: `patched ${r}` })));
    if (ops.has('delete')) await timed(`DELETE ${size} ${kind.label}`, 'DELETE', kind.path, made.map((o: any) => ({ id: o.id })));
  }
}
await app.close();
