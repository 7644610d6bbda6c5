/**
 * Server CPU per request under a loopback load (issue 22): the service is built in this process
 * (as src/server.ts builds it: request log on, LOG_LEVEL=warn), autocannon runs in a child
 * process (10 connections, `Cache-Control: no-cache`: rendered afresh), and this process's CPU
 * (process.cpuUsage, all threads) is divided by the requests answered. Unlike inject() it
 * includes the HTTP layer; unlike profile-cpu.ts HTTP=1 it leaves the client out.
 *
 *   DATABASE_URL=sqlite:/tmp/x.sqlite3 SECONDS=10 OUT=/tmp/x.cpuprofile node --import tsx bench/profile-http.ts '/api/dcim/locations/<id>/'
 *
 * `/api/hooks-only/` answers fixed bytes (about a location detail's size) through every hook of
 * the service (versioning, authentication, CSV and browsable checks, headers, metrics, request
 * log): what a request costs before and after a model route's handler. `OUT` writes a CPU profile
 * of the measured load (INTERVAL_US sampling interval, 200); `NO_LOG=1` builds without the
 * request log. The client runs in a child (autocannon): on a loaded machine req/s varies far more
 * than CPU ms/req.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { Session } from 'node:inspector/promises';
import { buildApp } from '../src/api/app.js';
import { loadConfig } from '../src/core/config.js';
import { sendJsonText } from '../src/api/crud/respond.js';
import { BENCH_TOKEN, BENCH_USER, REPO_DIR } from './lib/env.js';

const seconds = Number(process.env.SECONDS || 10);
const config = loadConfig({ ...process.env, SUPERUSER_NAME: BENCH_USER, SUPERUSER_API_TOKEN: BENCH_TOKEN, LOG_LEVEL: 'warn', MAX_PAGE_SIZE: '0' });
const app = await buildApp({ config, logger: process.env.NO_LOG !== '1', migrate: false });
// A route answering fixed bytes through every hook of the service (what the framework costs a request).
const fixed = Buffer.from(JSON.stringify({ id: 'x'.repeat(1400) }));
app.get('/api/hooks-only/', (_req, reply) => sendJsonText(reply, 200, fixed));
const base = await app.listen({ host: '127.0.0.1', port: 0 });

/** Runs autocannon in a child for `secs` seconds against `url`; the requests it completed. */
function load(url: string, secs: number): Promise<{ requests: number; rps: number; non2xx: number }> {
  const script = `
    const autocannon = require(${JSON.stringify(path.join(REPO_DIR, 'node_modules', 'autocannon'))});
    autocannon({ url: ${JSON.stringify(url)}, connections: 10, duration: ${secs},
      headers: { authorization: 'Token ${BENCH_TOKEN}', accept: 'application/json', 'cache-control': 'no-cache' } },
      (err, r) => { if (err) throw err; console.log(JSON.stringify({ requests: r.requests.total, rps: r.requests.average, non2xx: r.non2xx })); });`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => { out += d; });
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').at(-1)!)) : reject(new Error(`autocannon ${code}`))));
  });
}

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: Number(process.env.INTERVAL_US || 200) });
for (const path of process.argv.slice(2)) {
  await load(base + path, 2);
  if (process.env.OUT) await session.post('Profiler.start');
  const before = process.cpuUsage();
  const got = await load(base + path, seconds);
  const used = process.cpuUsage(before);
  console.log(`${path}  ${got.rps} req/s  non2xx ${got.non2xx}  server CPU ${((used.user + used.system) / 1000 / got.requests).toFixed(3)} ms/req (user ${(used.user / 1000 / got.requests).toFixed(3)}, system ${(used.system / 1000 / got.requests).toFixed(3)})`);
  if (process.env.OUT) {
    const { profile } = await session.post('Profiler.stop');
    fs.writeFileSync(process.env.OUT, JSON.stringify(profile));
  }
}
session.disconnect();
await app.close();
