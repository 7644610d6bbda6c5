/**
 * Issue 22: a digest of every list's first page rendered by both renderers (text and objects),
 * at several depths and options and two base URLs in turn: run it in two trees on the same
 * database to show a renderer change leaves every byte as it was (`V=1` prints each page's hashes).
 *
 *   DATABASE_URL=sqlite:/tmp/x.sqlite3 LIMIT=60 node --import tsx bench/render-dump.ts
 */
import { createHash } from 'node:crypto';
import { buildBenchApp } from './lib/local-app.js';
import { benchDatabaseUrl } from './lib/env.js';
import { loadForSerialization } from '../src/ops/serialize/plan.js';
import { renderRows } from '../src/ops/serialize/render.js';
import { renderJoined } from '../src/ops/serialize/render-text.js';
import type { ResolvedModel } from '../src/core/registry/types.js';
import type { SerializeOptions } from '../src/ops/serialize/plan.js';
const app = await buildBenchApp(benchDatabaseUrl(), { migrate: false });
const { services } = app;
const variants: Omit<SerializeOptions, 'baseUrl'>[] = [
  { depth: 0 }, { depth: 1 }, { depth: 2 }, { depth: 0, excludeM2m: true }, { depth: 1, omitCounts: true },
  { depth: 1, include: new Set(['relationships', 'computed_fields', 'config_context']) },
];
const hash = createHash('sha256');
let n = 0;
for (const model of services.registry.models as readonly ResolvedModel[]) {
  const raw = await services.dialect.db.selectFrom(model.table).selectAll().limit(Number(process.env.LIMIT ?? 50)).execute();
  const rows = raw.map((r) => services.store.decode(model, r));
  for (const variant of variants) for (const baseUrl of ['http://h\u00e9"st:1', 'http://a']) {
    const opts: SerializeOptions = { ...variant, baseUrl };
    const loaded = await loadForSerialization(services, services.dialect.db, model, rows, opts);
    const page = renderJoined(services, loaded, model, rows, opts, '[', ']');
    const objs = JSON.stringify(renderRows(services, loaded, model, rows, opts));
    const line = `${model.id} ${JSON.stringify({ ...variant, include: [...(variant.include ?? [])] })} ${baseUrl} ${createHash('sha256').update(page).digest('hex')} ${createHash('sha256').update(objs).digest('hex')}`;
    hash.update(line); n += 1;
    if (process.env.V) console.log(line);
  }
}
console.log(`${n} pages, digest ${hash.digest('hex')}`);
await app.close();
