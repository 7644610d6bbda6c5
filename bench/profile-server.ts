/**
 * CPU profile of the service alone over real HTTP (issue 22): the service runs in this process
 * on a loopback port, a client child process sends each path N times (one connection,
 * `Cache-Control: no-cache`), and only the measured requests are profiled: the client's work
 * stays out of the profile and of the CPU figure (process.cpuUsage of the service's process).
 *
 *   DATABASE_URL=sqlite:bench/.data/bench.sqlite3 N=500 OUT=/tmp/x.cpuprofile node --import tsx bench/profile-server.ts '/api/dcim/locations/?limit=50'
 */
import fs from 'node:fs';
import { spawn } from 'node:child_process';
import { Session } from 'node:inspector/promises';
import { buildBenchApp } from './lib/local-app.js';
import { BENCH_TOKEN } from './lib/env.js';

const CLIENT = `
const [base, n, ...paths] = process.argv.slice(1);
const headers = { authorization: 'Token ${BENCH_TOKEN}', accept: 'application/json', 'cache-control': 'no-cache' };
const hit = async (p) => { const r = await fetch(base + p, { headers }); await r.arrayBuffer(); return r.status; };
process.on('message', async ({ path, count }) => {
  let status = 0;
  for (let i = 0; i < count; i += 1) status = await hit(path);
  process.send({ status });
});
`;

const url = process.env.DATABASE_URL || `sqlite:${process.cwd()}/bench/.data/bench.sqlite3`;
const n = Number(process.env.N || 300);
const app = await buildBenchApp(url, { migrate: false });
const base = await app.listen({ host: '127.0.0.1', port: 0 });
const client = spawn(process.execPath, ['-e', CLIENT, base], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });

/** Has the client send `path` `count` times; the last status. */
function drive(path: string, count: number): Promise<number> {
  return new Promise((resolve) => {
    client.once('message', (m: { status: number }) => resolve(m.status));
    client.send({ path, count });
  });
}

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 200 });
for (const p of process.argv.slice(2)) await drive(p, 20);
await session.post('Profiler.start');
for (const p of process.argv.slice(2)) {
  const before = process.cpuUsage();
  const status = await drive(p, n);
  const used = process.cpuUsage(before);
  console.log(`${p}  status ${status}  server CPU ${((used.user + used.system) / 1000 / n).toFixed(2)} ms/req`);
}
const { profile } = await session.post('Profiler.stop');
if (process.env.OUT) fs.writeFileSync(process.env.OUT, JSON.stringify(profile));
session.disconnect();
client.kill();
await app.close();
