import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';

/**
 * A write's response renders from what its change log loaded for the written rows (related rows,
 * links, counts; serialize/preloaded.ts): a PATCH on a detail path costs no more statements than
 * the same PATCH of one object on the list path, and answers the same object.
 */

let t: TestApp;
let rooms: any[];

async function counted(method: 'PATCH' | 'PUT', path: string, body: unknown): Promise<{ statements: number; body: any }> {
  const dialect = t.app.services.dialect;
  const start = dialect.queryCount();
  const res = await t.call(method, path, body);
  assert.equal(res.status, 200, res.raw.slice(0, 500));
  return { statements: dialect.queryCount() - start, body: res.body };
}

before(async () => {
  t = await makeApp();
  await create(t, '/api/dcim/location-types/', { name: 'Building', content_types: ['dcim.location'] });
  await create(t, '/api/dcim/location-types/', { name: 'Room', parent: 'Building' });
  await create(t, '/api/extras/tags/', [{ name: 'red', content_types: ['dcim.location'] }]);
  const [building] = await create(t, '/api/dcim/locations/', [{ name: 'b1', location_type: 'Building', status: 'Active' }]);
  rooms = await create(t, '/api/dcim/locations/', [1, 2, 3].map((i) => ({ name: `r${i}`, location_type: 'Room', status: 'Active', parent: building.id, tags: ['red'] })));
});
after(() => t.close());

describe('detail write responses', () => {
  it('should render a detail PATCH from its change log loads, as a bulk PATCH of one object', async () => {
    // Warm both paths once (memos of custom fields and the like are read on first use).
    await counted('PATCH', `/api/dcim/locations/${rooms[0].id}/`, { description: 'warm' });
    await counted('PATCH', '/api/dcim/locations/', [{ id: rooms[0].id, description: 'warm 2' }]);
    const bulk = await counted('PATCH', '/api/dcim/locations/', [{ id: rooms[1].id, description: 'x' }]);
    const detail = await counted('PATCH', `/api/dcim/locations/${rooms[2].id}/`, { description: 'x' });
    assert.ok(detail.statements <= bulk.statements, `detail PATCH took ${detail.statements} statements, bulk PATCH of one ${bulk.statements}`);
    // The same object but for what names this row (its id, name, URLs and time).
    const own = new Set(['id', 'url', 'notes_url', 'display', 'name', 'last_updated', 'natural_slug']);
    const shared = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([k]) => !own.has(k)));
    assert.deepEqual(Object.keys(detail.body), Object.keys(bulk.body[0]));
    assert.deepEqual(shared(detail.body), shared(bulk.body[0]));
    assert.equal(detail.body.tags.length, 1);
    assert.equal(detail.body.parent.id, rooms[2].parent.id);
  });
});
