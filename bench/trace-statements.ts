/**
 * The statements of one fresh request, each with its time and SQLite's plan: run with
 * SQL_TRACE=1 semantics of its own (no env needed). Usage: DATABASE_URL=... node --import tsx bench/trace-statements.ts URL...
 * Each statement is then re-run alone R times (default 20) and its median time printed. On
 * PostgreSQL the request's batches (postgres-shared-reads.ts: statements sent in one write, each
 * a round trip of its own when alone) are counted too.
 */
import { CompiledQuery } from 'kysely';
import { buildBenchApp } from './lib/local-app.js';
import { BENCH_TOKEN } from './lib/env.js';
import { SharedReads } from '../src/db/dialects/postgres-shared-reads.js';

const url = process.env.DATABASE_URL || 'sqlite:' + process.cwd() + '/bench/.data/bench.sqlite3';
const repeats = Number(process.env.R || 20);
const app = await buildBenchApp(url);
const headers = { authorization: `Token ${BENCH_TOKEN}`, accept: 'application/json', 'cache-control': 'no-cache' };
const dialect = app.services.dialect;
const logged: { sql: string; params: readonly unknown[] }[] = [];
const original = process.stderr.write.bind(process.stderr);
/** Batches of shared reads begun (PostgreSQL), counted around SharedReads' private `start`. */
let batches = 0;
const sharedReads = SharedReads.prototype as unknown as { start(this: SharedReads): unknown };
const startBatch = sharedReads.start;
sharedReads.start = function start(this: SharedReads) {
  batches += 1;
  return startBatch.call(this);
};
/** The batch each statement text joined (PostgreSQL), in the order they were sent, printed beside it. */
const batchOf: string[] = [];
const sharedQuery = SharedReads.prototype.query;
SharedReads.prototype.query = function query(this: SharedReads, text: string, values: unknown[], rowMode?: 'array') {
  const result = sharedQuery.call(this, text, values, rowMode);
  batchOf.push(`${batches} ${text.replace(/\s+/g, ' ').slice(0, Number(process.env.W || 400))}`);
  return result;
};
for (const p of process.argv.slice(2)) {
  for (let i = 0; i < 3; i++) await app.inject({ method: 'GET', url: p, headers });
  logged.length = 0;
  const executeQuery = dialect.db.executeQuery.bind(dialect.db);
  const readRows = dialect.readRows;
  const readArrays = dialect.readArrays;
  (dialect as { readRows: typeof readRows }).readRows = async (exec, text, params) => { logged.push({ sql: text, params }); return readRows(exec, text, params); };
  (dialect as { readArrays: typeof readArrays }).readArrays = async (exec, text, params) => { const r = readArrays ? await readArrays(exec, text, params) : null; if (r) logged.push({ sql: text, params }); return r; };
  (dialect.db as { executeQuery: typeof executeQuery }).executeQuery = (async (q: CompiledQuery) => { logged.push({ sql: q.sql, params: q.parameters }); return executeQuery(q); }) as typeof executeQuery;
  const q0 = dialect.queryCount();
  batches = 0;
  batchOf.length = 0;
  const t0 = performance.now();
  const res = await app.inject({ method: 'GET', url: p, headers });
  const whole = performance.now() - t0;
  (dialect as { readRows: typeof readRows }).readRows = readRows;
  (dialect as { readArrays: typeof readArrays }).readArrays = readArrays;
  (dialect.db as { executeQuery: typeof executeQuery }).executeQuery = executeQuery;
  // Each statement sent to PostgreSQL with the batch it joined (the batch's number first).
  for (const noted of batchOf) console.log(`batch ${noted}`);
  console.log(`\n=== ${p} status ${res.statusCode} statements ${dialect.queryCount() - q0} (logged ${logged.length})${dialect.name === 'sqlite' ? '' : ` batches ${batches}`} whole ${whole.toFixed(2)} ms`);
  for (const s of logged) {
    const times: number[] = [];
    for (let i = 0; i < repeats; i++) {
      const t = performance.now();
      await dialect.db.executeQuery(CompiledQuery.raw(s.sql, [...s.params]));
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    const plan = dialect.name === 'sqlite'
      ? (await dialect.db.executeQuery<{ detail: string }>(CompiledQuery.raw('EXPLAIN QUERY PLAN ' + s.sql, [...s.params]))).rows.map((r) => r.detail)
      : [];
    console.log(`-- ${times[times.length >> 1].toFixed(3)} ms  ${s.sql.slice(0, Number(process.env.W || 400))}  ${JSON.stringify(s.params).slice(0, 200)}`);
    for (const line of plan) console.log(`     ${line}`);
  }
}
void original;
await app.close();
