/**
 * Issue 22: CPU of rendering one page (loads done beforehand) by the object renderer plus
 * jsonBuffer against the text renderer, interleaved in rounds so a busy machine disturbs both alike.
 *
 *   N=200 ROUNDS=5 node --import tsx bench/render-ab.ts '/api/dcim/devices/?limit=50&depth=1' ...
 *
 * `OUT=x.cpuprofile`: a CPU profile of the text renderer's runs alone (all paths).
 */
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import { buildBenchApp } from './lib/local-app.js';
import { listPath } from './lib/list-path.js';
import { benchDatabaseUrl } from './lib/env.js';
import { listRows } from '../src/ops/read.js';
import { loadForSerialization } from '../src/ops/serialize/plan.js';
import { renderRows } from '../src/ops/serialize/render.js';
import { renderPage } from '../src/ops/serialize/index.js';
import { jsonBuffer } from '../src/core/json-buffer.js';
import { parsePaging, serializeOptions } from '../src/api/crud/query.js';
import { benchRequestContext, cpuMsPerRun } from './lib/render-context.js';

const n = Number(process.env.N || 200);
const rounds = Number(process.env.ROUNDS || 5);
const app = await buildBenchApp(benchDatabaseUrl(), { migrate: false });
const { services } = app;
const rc = benchRequestContext('http://127.0.0.1:8080');
const cpu = (fn: () => unknown): number => cpuMsPerRun(n, fn);

const session = process.env.OUT ? new Session() : null;
session?.connect();
await session?.post('Profiler.enable');
await session?.post('Profiler.setSamplingInterval', { interval: 100 });

for (const path of process.argv.slice(2)) {
  const { model, params } = listPath(services, path);
  const opts = serializeOptions(params, rc.baseUrl, { method: 'GET' });
  const { rows, count } = await listRows(services, rc, model, { params, ...parsePaging(params, services.config) });
  const loaded = await loadForSerialization(services, services.dialect.db, model, rows, opts);
  const envelope = { count, next: null, previous: null };
  const old = () => jsonBuffer({ ...envelope, results: renderRows(services, loaded, model, rows, opts) });
  const now = () => renderPage(services, loaded, model, rows, opts, envelope);
  if (!old().equals(now())) throw new Error(`${path}: the texts differ`);
  const [a, b]: number[][] = [[], []];
  for (let r = 0; r < rounds; r += 1) {
    a.push(cpu(old));
    b.push(cpu(now));
  }
  if (session) {
    await session.post('Profiler.start');
    cpu(now);
    const { profile } = await session.post('Profiler.stop');
    fs.writeFileSync(process.env.OUT as string, JSON.stringify(profile));
  }
  const med = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)].toFixed(3);
  console.log(`${path}  ${old().length} B  objects+jsonBuffer ${med(a)} ms  text ${med(b)} ms (medians of ${rounds})`);
}
await app.close();
