/**
 * Ad-hoc CPU profile of fresh renders (issue 22), in process: warms up, then profiles only the
 * measured requests (the inspector's sampling profiler, no start-up noise) and writes a
 * `.cpuprofile` (open it in Chrome DevTools) plus CPU ms/req (process.cpuUsage).
 *
 *   DATABASE_URL=sqlite:bench/.data/bench.sqlite3 N=200 OUT=/tmp/x.cpuprofile node --import tsx bench/profile-cpu.ts '/api/dcim/locations/?limit=50'
 *
 * `POST=<json>` (or `POST_FILE=<file>`) posts that body to every path instead (bulk writes; `DELETE_AFTER=1` deletes
 * what each POST made, so the table stays as it was). `HTTP=1` sends the requests over loopback
 * (fetch) instead of inject(), whose own copying of large bodies would crowd the profile; the
 * client's work (undici) is then in the profile and the CPU figure too.
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
const post = process.env.POST_FILE ? fs.readFileSync(process.env.POST_FILE, 'utf8') : process.env.POST;

const base = process.env.HTTP ? await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT || 0) }) : null;

/** One request, through inject() or over loopback: its status and body. */
async function send(method: string, path: string, payload?: string): Promise<{ status: number; body: string }> {
  if (base === null) {
    const res = await app.inject({ method: method as 'GET', url: path, headers, payload });
    return { status: res.statusCode, body: res.body };
  }
  const res = await fetch(base + path, { method, headers, body: payload });
  return { status: res.status, body: await res.text() };
}

async function once(path: string, i: number): Promise<number> {
  if (post === undefined) return (await send('GET', path)).status;
  const res = await send('POST', path, post.replaceAll('{i}', `${process.pid}-${Date.now()}-${i}`));
  if (process.env.DELETE_AFTER) {
    const made = JSON.parse(res.body) as { id: string }[];
    await send('DELETE', path, JSON.stringify(made.map((o) => ({ id: o.id }))));
  }
  return res.status;
}
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
