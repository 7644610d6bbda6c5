import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DB_URL, create, makeApp } from '../helpers/app.js';
import { makeUser } from '../helpers/users.js';
import { countBatches } from '../helpers/count-batches.js';
import type { TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/users.js';

/**
 * A detail GET reads its object ahead, while its reader is authenticated (PostgreSQL: in the
 * token's round trip). What was read ahead is what an unrestricted reader sees, so these check
 * that a narrower reader, a failed authentication and the response cache never get it.
 */

const onPostgres = DB_URL.startsWith('postgres');
const NO_CACHE = { 'cache-control': 'no-cache' };
let t: TestApp;
let limited: TestUser;
let seen: any;
let hidden: any;

/** Batches of shared reads (PostgreSQL round trips) and statements one request costs, and its response. */
async function cost(url: string, opts: { token?: string; headers?: Record<string, string> } = {}) {
  const before = t.app.services.dialect.queryCount();
  const { result: res, batches } = await countBatches(() => t.call('GET', url, undefined, opts));
  return { res, batches, statements: t.app.services.dialect.queryCount() - before };
}

before(async () => {
  t = await makeApp();
  await create(t, '/api/dcim/location-types/', { name: 'Site', content_types: ['dcim.location'] });
  await create(t, '/api/extras/tags/', [{ name: 'red', content_types: ['dcim.location'] }]);
  [seen, hidden] = await create(t, '/api/dcim/locations/', ['seen', 'hidden'].map((name) => ({ name, location_type: 'Site', status: 'Active', tags: ['red'] })));
  limited = await makeUser(t, 'ahead-reader', [{ object_types: ['dcim.location'], actions: ['view'], constraints: { name: 'seen' } }]);
});
after(() => t.close());

describe('detail GET read ahead of authentication', () => {
  it('should give a reader limited by a constraint only what the constraint lets through', async () => {
    for (let i = 0; i < 2; i += 1) {
      const out = await cost(`/api/dcim/locations/${hidden.id}/`, { token: limited.key, headers: NO_CACHE });
      assert.equal(out.res.status, 404);
      assert.deepEqual(out.res.body, { detail: 'No Location matches the given query.' });
    }
    const mine = await cost(`/api/dcim/locations/${seen.id}/`, { token: limited.key, headers: NO_CACHE });
    const admins = await cost(`/api/dcim/locations/${seen.id}/`, { headers: NO_CACHE });
    assert.equal(mine.res.status, 200);
    assert.deepEqual(mine.res.body, admins.res.body);
  });

  it('should answer a failed authentication and an unknown model as before', async () => {
    const bad = await cost(`/api/dcim/locations/${seen.id}/`, { token: 'f'.repeat(40), headers: NO_CACHE });
    assert.equal(bad.res.status, 403);
    assert.deepEqual(bad.res.body, { detail: 'Invalid token' });
    const unknown = await cost(`/api/dcim/nothings/${seen.id}/`, { headers: NO_CACHE });
    assert.equal(unknown.res.status, 404);
    const unknownBadToken = await cost(`/api/dcim/nothings/${seen.id}/`, { token: 'f'.repeat(40) });
    assert.equal(unknownBadToken.res.status, 403);
  });

  it('should read the token, the row and its links and counts in one round trip on PostgreSQL', { skip: onPostgres ? false : 'runs with DATABASE_URL=postgres://...' }, async () => {
    const path = `/api/dcim/locations/${seen.id}/`;
    await cost(path, { headers: NO_CACHE });
    const out = await cost(path, { headers: NO_CACHE });
    assert.equal(out.res.status, 200);
    assert.equal(out.batches, 1);
    assert.equal(out.statements, 3);
  });

  it('should give a limited reader a list page of what the constraint lets through', async () => {
    const mine = await cost('/api/dcim/locations/?limit=10', { token: limited.key, headers: NO_CACHE });
    assert.equal(mine.res.status, 200);
    assert.deepEqual(mine.res.body.results.map((r: any) => r.name), ['seen']);
    assert.equal(mine.res.body.count, 1);
    const admins = await cost('/api/dcim/locations/?limit=10&offset=1', { headers: NO_CACHE });
    assert.deepEqual(admins.res.body.results.map((r: any) => r.name), ['seen']);
    assert.equal(admins.res.body.count, 2);
  });

  it('should read an unfiltered list page in the token round trip on PostgreSQL, a filtered one after it', { skip: onPostgres ? false : 'runs with DATABASE_URL=postgres://...' }, async () => {
    const plain = '/api/dcim/locations/?limit=10&depth=1';
    const filtered = '/api/dcim/locations/?limit=10&depth=1&name__ic=e';
    for (const path of [plain, filtered]) await cost(path, { headers: NO_CACHE });
    const [a, b] = [await cost(plain, { headers: NO_CACHE }), await cost(filtered, { headers: NO_CACHE })];
    assert.deepEqual(a.res.body, b.res.body);
    assert.equal(a.batches, b.batches - 1);
  });

  it('should read nothing ahead for a body the response cache holds', async () => {
    const path = `/api/dcim/locations/${seen.id}/?exclude_m2m=true`;
    const first = await cost(path);
    // PostgreSQL: the token, the row and its links and counts in one round trip, and the body kept
    // without reading the generation again after rendering (a round trip more).
    if (onPostgres) assert.deepEqual([first.statements, first.batches], [3, 1]);
    const again = await cost(path);
    assert.equal(again.res.raw, first.res.raw);
    // PostgreSQL reads the token beside the generation: that statement alone.
    assert.equal(again.statements, onPostgres ? 1 : 0);
  });
});
