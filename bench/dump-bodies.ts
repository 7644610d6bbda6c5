/**
 * Issue 22: every list's first page at depth 0-2 (and with `exclude_m2m`), the detail GET of its
 * first and last objects at depth 0-2, as status and full body, one line per URL: two trees'
 * outputs are compared to show a change kept every body byte-identical.
 *
 *   DATABASE_URL=sqlite:<copy> node --import tsx bench/dump-bodies.ts > /tmp/bodies.txt
 */
import { bodyDumper } from './lib/body-dump.js';

const { app, get } = await bodyDumper();
const limit = Number(process.env.LIMIT ?? 50);
const extra = (process.env.EXTRA ?? '').split(' ').filter(Boolean);
for (const model of app.services.registry.models) {
  const base = `/api/${model.app}/${model.path}/`;
  let ids: string[] = [];
  for (const depth of [0, 1, 2]) {
    const body = await get(`${base}?limit=${limit}&depth=${depth}`);
    if (depth === 0) {
      try { ids = (JSON.parse(body).results ?? []).map((r: { id: unknown }) => String(r.id)); } catch { ids = []; }
    }
  }
  await get(`${base}?limit=${limit}&offset=${limit}&exclude_m2m=true`);
  for (const id of new Set([ids[0], ids.at(-1)].filter(Boolean))) for (const depth of [0, 1, 2]) await get(`${base}${id}/?depth=${depth}`);
}
for (const url of extra) await get(url);
await app.close();
