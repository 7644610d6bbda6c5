/**
 * Issue 22: the text renderer against the object renderer on every list of a database (first
 * page, depths 0-2, with and without opt-in keys): each row's text must equal JSON.stringify of
 * its object. Prints the differences; exit 1 when any.
 *
 *   DATABASE_URL=sqlite:bench/.data/bench.sqlite3 LIMIT=50 node --import tsx bench/render-check.ts
 */
import { buildBenchApp } from './lib/local-app.js';
import { benchDatabaseUrl } from './lib/env.js';
import { loadForSerialization } from '../src/ops/serialize/plan.js';
import { renderRows } from '../src/ops/serialize/render.js';
import { renderJoined } from '../src/ops/serialize/render-text.js';
import type { ResolvedModel } from '../src/core/registry/types.js';
import type { SerializeOptions } from '../src/ops/serialize/plan.js';

const app = await buildBenchApp(benchDatabaseUrl(), { migrate: false });
const { services } = app;
let checked = 0;
let differ = 0;
const variants: Omit<SerializeOptions, 'baseUrl'>[] = [
  { depth: 0 }, { depth: 1 }, { depth: 2 }, { depth: 0, excludeM2m: true },
  { depth: 1, include: new Set(['relationships', 'computed_fields', 'config_context']) },
];
for (const model of services.registry.models as readonly ResolvedModel[]) {
  const raw = await services.dialect.db.selectFrom(model.table).selectAll().limit(Number(process.env.LIMIT ?? 50)).execute();
  const rows = raw.map((r) => services.store.decode(model, r));
  for (const variant of variants) {
    const opts: SerializeOptions = { ...variant, baseUrl: 'http://h\u00e9"st:1' };
    const loaded = await loadForSerialization(services, services.dialect.db, model, rows, opts);
    const want = renderRows(services, loaded, model, rows, opts).map((o) => JSON.stringify(o));
    const got = rows.map((row) => renderJoined(services, loaded, model, [row], opts, '', '').toString());
    const page = renderJoined(services, loaded, model, rows, opts, '[', ']').toString();
    if (page !== `[${want.join(',')}]`) console.log(`${model.id} ${JSON.stringify(variant)}: the page differs`);
    differ += page !== `[${want.join(',')}]` ? 1 : 0;
    checked += rows.length;
    want.forEach((w, i) => {
      if (w === got[i]) return;
      differ += 1;
      if (differ <= 10) console.log(`${model.id} ${JSON.stringify(variant)} row ${i}\n  want ${w.slice(0, 600)}\n  got  ${got[i]?.slice(0, 600)}`);
    });
  }
}
console.log(`${checked} renderings checked, ${differ} differ`);
await app.close();
process.exit(differ > 0 ? 1 : 0);
