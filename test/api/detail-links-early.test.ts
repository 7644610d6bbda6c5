import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DB_URL, create, makeApp } from '../helpers/app.js';
import { countBatches } from '../helpers/count-batches.js';
import type { TestApp } from '../helpers/app.js';

/**
 * A detail GET that names its object by id reads the object's links and counts beside the row
 * (serializeOne's `early`): the same object as the list renders, the same errors in the same
 * order, and on PostgreSQL the row and its links and counts in one batch of statements.
 */

let t: TestApp;
let building: any;
let rooms: any[];
const NO_CACHE = { headers: { 'cache-control': 'no-cache' } };

before(async () => {
  t = await makeApp();
  await create(t, '/api/dcim/location-types/', { name: 'Building', content_types: ['dcim.location'] });
  await create(t, '/api/dcim/location-types/', { name: 'Room', parent: 'Building' });
  await create(t, '/api/extras/tags/', [{ name: 'red', content_types: ['dcim.location'] }, { name: 'blue', content_types: ['dcim.location'] }]);
  [building] = await create(t, '/api/dcim/locations/', [{ name: 'b1', location_type: 'Building', status: 'Active', tags: ['red', 'blue'] }]);
  rooms = await create(t, '/api/dcim/locations/', [1, 2].map((i) => ({ name: `r${i}`, location_type: 'Room', status: 'Active', parent: building.id, tags: ['red'] })));
});
after(() => t.close());

describe('detail GET by id', () => {
  it('should answer the object the list answers, links and counts included, at depth 0 and 1', async () => {
    for (const depth of [0, 1]) {
      const list = await t.call('GET', `/api/dcim/locations/?id=${building.id}&depth=${depth}`, undefined, NO_CACHE);
      const detail = await t.call('GET', `/api/dcim/locations/${building.id}/?depth=${depth}`, undefined, NO_CACHE);
      assert.equal(detail.status, 200);
      assert.deepEqual(detail.body, list.body.results[0]);
      assert.equal(detail.body.tags.length, 2);
    }
    const room = await t.call('GET', `/api/dcim/locations/${rooms[0].id}/?exclude_m2m=true`, undefined, NO_CACHE);
    assert.equal(room.body.tags, undefined, 'exclude_m2m leaves the links out');
  });

  it('should answer 404 for a missing object before a bad option, and 400 for a bad option of an existing one', async () => {
    const missing = await t.call('GET', '/api/dcim/locations/00000000-0000-4000-8000-000000000000/?depth=11', undefined, NO_CACHE);
    assert.equal(missing.status, 404);
    const bad = await t.call('GET', `/api/dcim/locations/${building.id}/?depth=11`, undefined, NO_CACHE);
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body, { detail: "'depth' may not be greater than 10." });
  });

  it('should read the row and its links and counts in one batch on PostgreSQL', { skip: DB_URL.startsWith('postgres') ? false : 'runs with DATABASE_URL=postgres://...' }, async () => {
    const path = `/api/dcim/locations/${building.id}/`;
    await t.call('GET', path, undefined, NO_CACHE);
    const { result: res, batches } = await countBatches(() => t.call('GET', path, undefined, NO_CACHE));
    assert.equal(res.status, 200);
    // The token and the write generation, the row and its links and counts: one round trip.
    assert.equal(batches, 1);
  });
});
