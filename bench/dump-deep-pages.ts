/**
 * Issue 22: pages of every list from deep offsets (1000, the middle, the last pages), also
 * sorted by `-id` and a filtered interface list, as status and full body, one line per URL: two
 * trees' outputs are compared to show a change to slicing kept every body byte-identical.
 *
 *   DATABASE_URL=sqlite:<copy> node --import tsx bench/dump-deep-pages.ts > /tmp/deep.txt
 */
import { bodyDumper } from './lib/body-dump.js';

const { app, get } = await bodyDumper();
for (const model of app.services.registry.models) {
  const base = `/api/${model.app}/${model.path}/`;
  const first = await get(`${base}?limit=1`);
  const count = Number((JSON.parse(first) as { count?: number }).count ?? 0);
  const offsets = [999, 1000, Math.floor(count / 2), count - 50, count - 1].filter((o) => o >= 999 && o < count);
  for (const offset of offsets) {
    await get(`${base}?limit=50&offset=${offset}`);
    await get(`${base}?limit=50&offset=${offset}&sort=-id`);
  }
}
for (const offset of [999, 1000, 1950]) await get(`/api/dcim/interfaces/?limit=50&offset=${offset}&name=Ethernet1/1`);
await app.close();
