/**
 * Issue 22: CPU per stage of a fresh list render, in process, each stage run N times alone
 * (process.cpuUsage; steadier than a sampling profile on a busy machine, where preemption is
 * charged to whatever ran): the page read (filters, statements, row decoding), the related
 * loads, the rendering into JSON bytes, and the whole request through inject().
 *
 *   DATABASE_URL=sqlite:bench/.data/bench.sqlite3 N=300 node --import tsx bench/render-stages.ts '/api/dcim/locations/?limit=50' ...
 *
 * `OUT=/tmp/x` also writes a CPU profile of each stage's measured runs (`/tmp/x-<stage>.cpuprofile`, last path's).
 */
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import { buildBenchApp } from './lib/local-app.js';
import { listPath } from './lib/list-path.js';
import { benchRequestContext } from './lib/render-context.js';
import { BENCH_TOKEN, benchDatabaseUrl } from './lib/env.js';
import { listRows } from '../src/ops/read.js';
import { loadForSerialization } from '../src/ops/serialize/plan.js';
import { renderPage } from '../src/ops/serialize/index.js';
import { serializeOptions, parsePaging } from '../src/api/crud/query.js';

const n = Number(process.env.N || 300);
const app = await buildBenchApp(benchDatabaseUrl(), { migrate: false });
const { services } = app;
const headers = { authorization: `Token ${BENCH_TOKEN}`, accept: 'application/json', 'cache-control': 'no-cache' };
const rc = benchRequestContext('http://127.0.0.1');

const session = process.env.OUT ? new Session() : null;
session?.connect();
await session?.post('Profiler.enable');
await session?.post('Profiler.setSamplingInterval', { interval: 100 });

/** Mean CPU ms of `fn` over n runs (after a few unmeasured ones), profiled under `stage` when OUT is set. */
async function cpu(stage: string, fn: () => unknown): Promise<number> {
  for (let i = 0; i < 10; i += 1) await fn();
  await session?.post('Profiler.start');
  const before = process.cpuUsage();
  for (let i = 0; i < n; i += 1) await fn();
  const used = process.cpuUsage(before);
  if (session) fs.writeFileSync(`${process.env.OUT}-${stage}.cpuprofile`, JSON.stringify((await session.post('Profiler.stop')).profile));
  return (used.user + used.system) / 1000 / n;
}

for (const path of process.argv.slice(2)) {
  const { model, params } = listPath(services, path);
  const paging = parsePaging(params, services.config);
  const opts = serializeOptions(params, rc.baseUrl, { method: 'GET' });
  const { rows } = await listRows(services, rc, model, { params, ...paging });
  const loaded = await loadForSerialization(services, services.dialect.db, model, rows, opts);
  const read = await cpu('read', () => listRows(services, rc, model, { params, ...paging }));
  const load = await cpu('load', () => loadForSerialization(services, services.dialect.db, model, rows, opts));
  const render = await cpu('render', () => renderPage(services, loaded, model, rows, opts, { count: 1000, next: null, previous: null }));
  const whole = await cpu('whole', () => app.inject({ method: 'GET', url: path, headers }));
  const fmt = (x: number) => x.toFixed(3).padStart(6);
  console.log(`${path}\n  read ${fmt(read)}  load ${fmt(load)}  render+encode ${fmt(render)}  whole request (inject) ${fmt(whole)} ms`);
}
await app.close();
