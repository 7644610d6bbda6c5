/**
 * Server CPU per request over real HTTP (issue 22): starts the service as a child process,
 * sends each path N times in turn (one connection, `Cache-Control: no-cache`: rendered afresh)
 * and reports the child's CPU time (user + system, all its threads, from /proc/<pid>/stat) per
 * request. Unlike req/s it holds on a busy machine; unlike inject() it includes the HTTP
 * layer and leaves out the client.
 *
 *   DATABASE_URL=sqlite:bench/.data/bench.sqlite3 N=200 node --import tsx bench/cpu-http.ts '/api/dcim/locations/?limit=50' ...
 *
 * The median request's CPU is printed beside the mean: a busy machine's preemptions land on a
 * few requests, so it holds better. Page faults per request (memory touched for the first time: fresh allocations the C allocator
 * just took from the kernel) are printed beside it: steadier than CPU time on a busy machine.
 *
 * `FLOOR=1` also measures, after each path, the bench's floor (floor-server.ts, a bare route
 * answering that path's bytes) the same way, and prints the ratio of the two CPU figures.
 *
 * `POST=<json>` posts that body instead (`{i}` in it is replaced by a unique text per request);
 * `DELETE_AFTER=1` then deletes what each POST made (its CPU counted apart, not reported).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BENCH_TOKEN, BENCH_USER, benchDatabaseUrl } from './lib/env.js';
import { startChild } from './lib/server.js';

/** CPU ms a process has used so far, all its threads (Linux schedstat: nanoseconds, not clock ticks). */
function processCpuMs(pid: number): number {
  let ns = 0;
  for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(fs.readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'latin1').split(' ')[0]);
    } catch { /* the thread ended */ }
  }
  return ns / 1e6;
}

/** Minor page faults of a process so far (all its threads): memory it touched for the first time. */
function processFaults(pid: number): number {
  return Number(fs.readFileSync(`/proc/${pid}/stat`, 'latin1').split(') ')[1].split(' ')[7]);
}

const n = Number(process.env.N || 200);
const post = process.env.POST;
const headers = { authorization: `Token ${BENCH_TOKEN}`, accept: 'application/json', 'cache-control': 'no-cache', 'content-type': 'application/json' };
const server = await startChild({
  script: 'src/server.ts', healthPath: '/health/',
  env: { LOG_LEVEL: 'warn', SUPERUSER_NAME: BENCH_USER, SUPERUSER_API_TOKEN: BENCH_TOKEN, MAX_PAGE_SIZE: '0', DATABASE_URL: benchDatabaseUrl() },
});

/** One request; the CPU ms it cost the server (a clean-up DELETE after it left out). */
async function once(route: string, i: number, target = server): Promise<{ status: number; ms: number; text: string }> {
  const body = post?.replaceAll('{i}', `${Date.now().toString(36)}-${i}`);
  const before = processCpuMs(target.pid);
  const res = await fetch(target.url + route, { method: post === undefined ? 'GET' : 'POST', headers, body });
  const text = await res.text();
  const ms = processCpuMs(target.pid) - before;
  if (post !== undefined && process.env.DELETE_AFTER && res.ok) {
    const made = JSON.parse(text) as { id: string }[];
    const del = await fetch(server.url + route, { method: 'DELETE', headers, body: JSON.stringify(made.map((o) => ({ id: o.id }))) });
    await del.arrayBuffer();
  }
  return { status: res.status, ms, text };
}

/** Mean server CPU ms of `route` over n requests after 20 unmeasured ones; the last status and body. */
async function measure(route: string, target = server): Promise<{ ms: number; median: number; faults: number; status: number; text: string }> {
  for (let i = 0; i < 20; i += 1) await once(route, i, target);
  const faults = processFaults(target.pid);
  let spent = 0;
  const each: number[] = [];
  let last = { status: 0, text: '' };
  for (let i = 0; i < n; i += 1) {
    const one = await once(route, i, target);
    spent += one.ms;
    each.push(one.ms);
    last = one;
  }
  each.sort((a, b) => a - b);
  return { ...last, ms: spent / n, median: each[Math.floor(n / 2)], faults: (processFaults(target.pid) - faults) / n };
}

/** The floor's CPU ms per request answering `body` at `route`. */
async function floorMs(route: string, body: string): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cpu-http-floor-'));
  fs.writeFileSync(path.join(dir, 'body.json'), body);
  const floor = await startChild({ script: 'bench/floor-server.ts', args: [dir], env: {}, healthPath: '/health/' });
  try {
    return (await measure('/floor/body.json', floor)).ms;
  } finally {
    await floor.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

try {
  for (const route of process.argv.slice(2)) {
    const { ms, median, faults, status, text } = await measure(route);
    const floor = process.env.FLOOR && post === undefined ? await floorMs(route, text) : null;
    const vs = floor === null ? '' : `  floor ${floor.toFixed(2)} ms/req  ratio ${(ms / floor).toFixed(1)}x`;
    console.log(`${route}  status ${status}  server CPU ${ms.toFixed(2)} ms/req (median ${median.toFixed(2)})  ${faults.toFixed(1)} page faults/req${vs}`);
  }
} finally {
  await server.stop();
}
