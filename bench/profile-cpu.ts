/**
 * Ad-hoc CPU profile of fresh renders (issue 22), in process: warms up, then profiles only the
 * measured requests (the inspector's sampling profiler, no start-up noise) and writes a
 * `.cpuprofile` (open it in Chrome DevTools) plus CPU ms/req (process.cpuUsage).
 *
 *   DATABASE_URL=sqlite:bench/.data/bench.sqlite3 N=200 OUT=/tmp/x.cpuprofile node --import tsx bench/profile-cpu.ts '/api/dcim/locations/?limit=50'
 *
 * `POST=<json>` posts that body to every path instead (bulk writes; `DELETE_AFTER=1` deletes
 * what each POST made, untimed, so the table stays as it was).
 */
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import { buildBenchApp } from './lib/local-app.js';
import { BENCH_TOKEN } from './lib/env.js';

const url = process.env.DATABASE_URL || `sqlite:${process.cwd()}/bench/.data/bench.sqlite3`;
const paths = process.argv.slice(2);
const n = Number(process.env.N || 200);
const app = await buildBenchApp(url, { migrate: false });
const headers = { authorization: `Token ${BENCH_TOKEN}`, accept: 'application/json', 'cache-control': 'no-cache', 'content-type': 'application/json' };
const post = process.env.POST;

async function once(path: string, i: number): Promise<number> {
  if (post === undefined) return (await app.inject({ method: 'GET', url: path, headers })).statusCode;
  const res = await app.inject({ method: 'POST', url: path, headers, payload: post.replaceAll('{i}', `${process.pid}-${Date.now()}-${i}`) });
  if (process.env.DELETE_AFTER) {
    const made = JSON.parse(res.body) as { id: string }[];
    timing = false;
    await app.inject({ method: 'DELETE', url: path, headers, payload: JSON.stringify(made.map((o) => ({ id: o.id }))) });
    timing = true;
  }
  return res.statusCode;
}

let timing = true;
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 200 });
for (const p of paths) {
  for (let i = 0; i < 10; i += 1) await once(p, i);
}
await session.post('Profiler.start');
for (const p of paths) {
  const before = process.cpuUsage();
  let status = 0;
  for (let i = 0; i < n; i += 1) status = await once(p, i);
  const used = process.cpuUsage(before);
  console.log(`${p}  status ${status}  CPU ${((used.user + used.system) / 1000 / n).toFixed(2)} ms/req`);
}
const { profile } = await session.post('Profiler.stop');
if (process.env.OUT) fs.writeFileSync(process.env.OUT, JSON.stringify(profile));
session.disconnect();
await app.close();
