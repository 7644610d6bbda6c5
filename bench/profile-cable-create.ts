/**
 * Ad-hoc: CPU (process.cpuUsage) and statements of only the bulk cable POSTs of `POST_FILE`
 * (a JSON array of cables, `{i}` replaced per round), each followed by an unmeasured DELETE of
 * what it made, on the bench database (or DATABASE_URL); `OUT=x.cpuprofile` writes a CPU profile
 * of the measured rounds (their DELETEs too: look under the write hooks for the create's share).
 *
 *   POST_FILE=cables.json ROUNDS=10 node --import tsx bench/profile-cable-create.ts
 */
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import { buildBenchApp } from './lib/local-app.js';
import { BENCH_TOKEN, benchDatabaseUrl } from './lib/env.js';

const app = await buildBenchApp(benchDatabaseUrl(), { migrate: false });
const headers = { authorization: `Token ${BENCH_TOKEN}`, 'content-type': 'application/json' };
const body = fs.readFileSync(process.env.POST_FILE!, 'utf8');
const rounds = Number(process.env.ROUNDS ?? 10);
const count = (app as any).services.dialect.queryCount as () => number;

async function call(method: 'POST' | 'DELETE', payload: string): Promise<any> {
  const res = await app.inject({ method, url: '/api/dcim/cables/', headers, payload });
  if (res.statusCode >= 300) throw new Error(`${method} -> ${res.statusCode}: ${res.body.slice(0, 500)}`);
  return res.body ? JSON.parse(res.body) : null;
}

const session = new Session();
if (process.env.OUT) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
}
let cpu = 0;
let statements = 0;
let cables = 0;
for (let r = -3; r < rounds; r += 1) {
  if (r === 0 && process.env.OUT) await session.post('Profiler.start');
  if (r === 0) { cpu = 0; statements = 0; cables = 0; }
  const before = process.cpuUsage();
  const n0 = count();
  const made = await call('POST', body.replaceAll('{i}', `${process.pid}-${r}`));
  const used = process.cpuUsage(before);
  cpu += (used.user + used.system) / 1000;
  statements += count() - n0;
  cables += made.length;
  await call('DELETE', JSON.stringify(made.map((c: any) => ({ id: c.id }))));
}
console.log(`${cables / rounds} cables/POST  CPU ${(cpu / cables).toFixed(3)} ms/cable  ${(cpu / rounds).toFixed(1)} ms/POST  ${statements / rounds} statements/POST`);
if (process.env.OUT) {
  const { profile } = await session.post('Profiler.stop');
  fs.writeFileSync(process.env.OUT, JSON.stringify(profile));
}
await app.close();
