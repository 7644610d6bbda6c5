/**
 * Server CPU per request over real HTTP (issue 22): starts the service as a child process,
 * sends each path N times in turn (one connection, `Cache-Control: no-cache`: rendered afresh)
 * and reports the child's CPU time (user + system, all its threads, from /proc/<pid>/stat) per
 * request. Unlike req/s it holds on a busy machine; unlike inject() it includes the HTTP
 * layer and leaves out the client.
 *
 *   DATABASE_URL=sqlite:bench/.data/bench.sqlite3 N=200 node --import tsx bench/cpu-http.ts '/api/dcim/locations/?limit=50' ...
 *
 * `POST=<json>` posts that body instead (`{i}` in it is replaced by a unique text per request);
 * `DELETE_AFTER=1` then deletes what each POST made (its CPU counted apart, not reported).
 */
import fs from 'node:fs';
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

const n = Number(process.env.N || 200);
const post = process.env.POST;
const headers = { authorization: `Token ${BENCH_TOKEN}`, accept: 'application/json', 'cache-control': 'no-cache', 'content-type': 'application/json' };
const server = await startChild({
  script: 'src/server.ts', healthPath: '/health/',
  env: { LOG_LEVEL: 'warn', SUPERUSER_NAME: BENCH_USER, SUPERUSER_API_TOKEN: BENCH_TOKEN, MAX_PAGE_SIZE: '0', DATABASE_URL: benchDatabaseUrl() },
});

/** One request; the CPU ms it cost the server (a clean-up DELETE after it left out). */
async function once(path: string, i: number): Promise<{ status: number; ms: number }> {
  const body = post?.replaceAll('{i}', `${Date.now().toString(36)}-${i}`);
  const before = processCpuMs(server.pid);
  const res = await fetch(server.url + path, { method: post === undefined ? 'GET' : 'POST', headers, body });
  const text = await res.text();
  const ms = processCpuMs(server.pid) - before;
  if (post !== undefined && process.env.DELETE_AFTER && res.ok) {
    const made = JSON.parse(text) as { id: string }[];
    const del = await fetch(server.url + path, { method: 'DELETE', headers, body: JSON.stringify(made.map((o) => ({ id: o.id }))) });
    await del.arrayBuffer();
  }
  return { status: res.status, ms };
}

try {
  for (const path of process.argv.slice(2)) {
    for (let i = 0; i < 20; i += 1) await once(path, i);
    let spent = 0;
    let status = 0;
    for (let i = 0; i < n; i += 1) {
      const one = await once(path, i);
      spent += one.ms;
      status = one.status;
    }
    console.log(`${path}  status ${status}  server CPU ${(spent / n).toFixed(2)} ms/req`);
  }
} finally {
  await server.stop();
}
