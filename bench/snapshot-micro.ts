/**
 * CPU of writing the change log's depth-1 snapshots of N locations (as a create records them:
 * rendered, split into text and parts, repr and flat tags read), in process on a database's
 * existing rooms: `node --import tsx bench/snapshot-micro.ts` (DATABASE_URL; N 1000, ROUNDS 40).
 * Each round renders afresh (new render state and splitter), as each write does.
 */
import { SnapshotSplitter } from '../src/core/json-text.js';
import { loadForSerialization } from '../src/ops/serialize/plan.js';
import { rowRenderer } from '../src/ops/serialize/render.js';
import { buildBenchApp } from './lib/local-app.js';
import { benchDatabaseUrl } from './lib/env.js';

const app = await buildBenchApp(benchDatabaseUrl(), { migrate: false });
const services = (app as any).services;
const model = services.registry.get('dcim.location');
const n = Number(process.env.N ?? 1000);
const rounds = Number(process.env.ROUNDS ?? 40);
const db = services.dialect.db;
const ids = (await db.selectFrom(model.table).select('id').where('parent_id', 'is not', null).limit(n).execute()).map((r: any) => r.id);
const rows = await services.store.byIds(db, model, ids);
const opts = { depth: 1, baseUrl: '', omitCounts: true };
const loaded = await loadForSerialization(services, db, model, rows, opts);
let sink = 0;
const writeModule = await import('../src/ops/write/snapshot-text.js').catch(() => undefined);
function viaObjects() {
  const { render, isNested } = rowRenderer(services, loaded, model, opts);
  const splitter = new SnapshotSplitter();
  for (const row of rows) {
    const s = render(row);
    sink += String(s.display ?? '').length + (Array.isArray(s.tags) ? s.tags.length : 0);
    sink += splitter.split(s, isNested).text.text.length;
  }
  sink += splitter.takeParts().size;
}
function viaText() {
  const splitter = new SnapshotSplitter();
  const write = writeModule!.snapshotWriter(services, loaded, model, opts, splitter);
  for (const row of rows) {
    const s = write(row);
    sink += String(s.display ?? '').length + (Array.isArray(s.tags) ? s.tags.length : 0);
    sink += s.text.text.length;
  }
  sink += splitter.takeParts().size;
}
const ways: [string, () => void][] = [['objects', viaObjects]];
if (writeModule) ways.push(['text', viaText]);
const spent = new Map<string, number[]>();
for (let r = -5; r < rounds; r += 1) {
  for (const [name, run] of r % 2 ? ways : [...ways].reverse()) {
    const c0 = process.cpuUsage();
    run();
    const used = process.cpuUsage(c0);
    if (r >= 0) spent.set(name, [...(spent.get(name) ?? []), (used.user + used.system) / 1000]);
  }
}
for (const [name, ms] of spent) {
  const sorted = [...ms].sort((a, b) => a - b);
  console.log(`${name}: ${rows.length} snapshots, CPU median ${sorted[Math.floor(sorted.length / 2)].toFixed(1)} ms, mean ${(ms.reduce((a, b) => a + b) / ms.length).toFixed(1)} ms`);
}
await app.close();
if (sink < 0) console.log(sink);
