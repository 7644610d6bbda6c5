/**
 * Issue 22: CPU ms of rendering one page into JSON bytes (loads done beforehand), per path;
 * `detail:<list path>` renders the first row alone, as a detail GET does. For A/B runs of two
 * trees on the same database (alternate them; the machine is shared).
 *
 *   DATABASE_URL=sqlite:/tmp/x.sqlite3 N=200 node --import tsx bench/render-cpu.ts '/api/dcim/devices/?limit=50&depth=1' 'detail:/api/dcim/devices/?limit=1'
 */
import { buildBenchApp } from './lib/local-app.js';
import { listPath } from './lib/list-path.js';
import { benchDatabaseUrl } from './lib/env.js';
import { benchRequestContext, cpuMsPerRun } from './lib/render-context.js';
import { listRows } from '../src/ops/read.js';
import { loadForSerialization } from '../src/ops/serialize/plan.js';
import { renderPage } from '../src/ops/serialize/index.js';
import { renderJoined } from '../src/ops/serialize/render-text.js';
import { serializeOptions, parsePaging } from '../src/api/crud/query.js';
const n = Number(process.env.N || 300);
const app = await buildBenchApp(benchDatabaseUrl(), { migrate: false });
const { services } = app;
const rc = benchRequestContext('http://127.0.0.1');
const cpu = (fn: () => unknown): number => cpuMsPerRun(n, fn, 20);
const out: string[] = [];
for (const path of process.argv.slice(2)) {
  const detail = path.startsWith('detail:');
  const { model, params } = listPath(services, detail ? path.slice(7) : path);
  const paging = parsePaging(params, services.config);
  const opts = serializeOptions(params, rc.baseUrl, { method: 'GET' });
  let { rows } = await listRows(services, rc, model, { params, ...paging });
  if (detail) rows = rows.slice(0, 1);
  const loaded = await loadForSerialization(services, services.dialect.db, model, rows, opts);
  const ms = detail ? cpu(() => renderJoined(services, loaded, model, rows, opts, '', '')) : cpu(() => renderPage(services, loaded, model, rows, opts, { count: 1000, next: null, previous: null }));
  out.push(`${path} ${ms.toFixed(3)}`);
}
console.log(out.join('\n'));
await app.close();
