/**
 * Ad-hoc: CPU per request, in process, of the GraphQL scenario (50 devices with interfaces, IP
 * addresses, location, platform, tags) and of the REST pages holding the same devices (the
 * depth-2 page; with `ALL=1` also the interface pages a REST client needs for the same data),
 * over N repetitions each after a warm-up, on a seeded database (`npm run seed`).
 *   npx tsx bench/graphql-cpu.ts   (DATABASE_URL, N=50)
 */
import '../src/server-env.js';
import { buildBenchApp } from './lib/local-app.js';
import { GRAPHQL_DEVICES, REST_DEVICES_DEPTH_2 } from './lib/scenarios.js';
import { request } from './lib/query-guard.js';
import type { FastifyInstance } from 'fastify';

const url = process.env.DATABASE_URL || `sqlite:${process.cwd()}/bench/.data/bench.sqlite3`;
const n = Number(process.env.N || 50);

async function cpuMs(app: FastifyInstance, path: string, post?: string): Promise<{ ms: number; bytes: number; statements: number }> {
  for (let i = 0; i < 5; i += 1) await app.inject(request(path, post));
  const q0 = app.services.dialect.queryCount();
  const res = await app.inject(request(path, post));
  if (res.statusCode !== 200) throw new Error(`${path} -> ${res.statusCode}: ${res.body.slice(0, 300)}`);
  const statements = app.services.dialect.queryCount() - q0;
  const before = process.cpuUsage();
  for (let i = 0; i < n; i += 1) await app.inject(request(path, post));
  const used = process.cpuUsage(before);
  return { ms: (used.user + used.system) / 1000 / n, bytes: res.body.length, statements };
}

const app = await buildBenchApp(url, { migrate: false });
const gql = await cpuMs(app, '/api/graphql/', JSON.stringify({ query: GRAPHQL_DEVICES }));
const rest = await cpuMs(app, REST_DEVICES_DEPTH_2);
const line = (name: string, r: { ms: number; bytes: number; statements: number }) => console.log(`${name.padEnd(44)} ${r.ms.toFixed(2).padStart(7)} CPU ms/req  ${String(r.statements).padStart(3)} SQL  ${(r.bytes / 1024).toFixed(0).padStart(6)} kB`);
line('GraphQL 50 devices (+interfaces, IPs, ...)', gql);
line('REST devices limit 50 depth 2', rest);
console.log(`ratio GraphQL / REST depth-2 page: ${(gql.ms / rest.ms).toFixed(2)}`);
if (process.env.ALL) {
  const page = JSON.parse((await app.inject(request(REST_DEVICES_DEPTH_2))).body) as { results: { name: string }[] };
  const names = page.results.map((d) => `device=${encodeURIComponent(d.name)}`).join('&');
  const ifaces = await cpuMs(app, `/api/dcim/interfaces/?limit=1000&depth=1&${names}`);
  line('REST interfaces of those devices, depth 1', ifaces);
  console.log(`ratio GraphQL / (REST devices page + interfaces page): ${(gql.ms / (rest.ms + ifaces.ms)).toFixed(2)}`);
}
await app.close();
