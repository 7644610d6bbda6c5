/** Ad-hoc read profiler: CPU ms and statements per request for a few URLs, in process. */
import fs from 'node:fs';
import { buildBenchApp } from './lib/local-app.js';
import { BENCH_TOKEN } from './lib/env.js';

/** CPU ms of this process's main thread (not GC helpers or workers; steal time excluded), from /proc. */
function mainThreadCpuMs(): number {
  const fields = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

const url = process.env.DATABASE_URL || 'sqlite:' + process.cwd() + '/bench/.data/bench.sqlite3';
const paths = process.argv.slice(2);
const n = Number(process.env.N || 200);
const app = await buildBenchApp(url);
const headers = { authorization: `Token ${BENCH_TOKEN}`, accept: 'application/json', ...(process.env.FRESH ? { 'cache-control': 'no-cache' } : {}) };
for (const p of paths) {
  for (let i = 0; i < 20; i++) await app.inject({ method: 'GET', url: p, headers });
  const q0 = app.services.dialect.queryCount();
  const res = await app.inject({ method: 'GET', url: p, headers });
  const q = app.services.dialect.queryCount() - q0;
  const t0 = process.cpuUsage();
  const m0 = mainThreadCpuMs();
  const w0 = performance.now();
  for (let i = 0; i < n; i++) await app.inject({ method: 'GET', url: p, headers });
  const cpu = process.cpuUsage(t0);
  const main = (mainThreadCpuMs() - m0) / n;
  const wall = performance.now() - w0;
  console.log(`${p}  status ${res.statusCode}  ${res.body.length} B  SQL ${q}  CPU ${((cpu.user + cpu.system) / 1000 / n).toFixed(2)} ms/req (main thread ${main.toFixed(2)})  wall ${(wall / n).toFixed(2)} ms/req`);
}
await app.close();
