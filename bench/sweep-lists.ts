/**
 * Ad-hoc sweep: every list endpoint's first page rendered afresh, in process, slowest first
 * (milliseconds per request over a few requests, statements, body size), to find slow paths.
 *
 *   node --import tsx bench/sweep-lists.ts      (DEPTH=1, LIMIT=50, TOP=40; the bench database or DATABASE_URL)
 */
import { buildBenchApp } from './lib/local-app.js';
import { BENCH_TOKEN, benchDatabaseUrl } from './lib/env.js';
import type { ResolvedModel } from '../src/core/registry/types.js';

const app = await buildBenchApp(benchDatabaseUrl());
const headers = { authorization: `Token ${BENCH_TOKEN}`, accept: 'application/json', 'cache-control': 'no-cache' };
const { registry, dialect } = app.services;
const rows: { ms: number; url: string; count: number; statements: number; bytes: number }[] = [];
for (const model of registry.models as readonly ResolvedModel[]) {
  if (model.internal) continue;
  const url = `/api/${model.app}/${model.path}/?limit=${process.env.LIMIT ?? 50}&depth=${process.env.DEPTH ?? 0}`;
  const first = await app.inject({ method: 'GET', url, headers });
  if (first.statusCode !== 200) {
    console.log(`${first.statusCode} ${url}`);
    continue;
  }
  const [q0, t0] = [dialect.queryCount(), performance.now()];
  let body = first.body;
  for (let i = 0; i < 5; i++) body = (await app.inject({ method: 'GET', url, headers })).body;
  rows.push({ ms: (performance.now() - t0) / 5, url, count: JSON.parse(body).count, statements: (dialect.queryCount() - q0) / 5, bytes: body.length });
}
rows.sort((a, b) => b.ms - a.ms);
for (const r of rows.slice(0, Number(process.env.TOP ?? 40))) {
  console.log(`${r.ms.toFixed(2).padStart(8)} ms ${String(r.count).padStart(8)} rows ${String(r.statements).padStart(4)} SQL ${String(r.bytes).padStart(8)} B  ${r.url}`);
}
await app.close();
