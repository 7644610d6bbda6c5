import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';

/** Issue 17, defect 3: request bodies are bounded (bytes, objects, JSON values, CSV rows) and refused with a 413. */
let t: TestApp;
let defaults: TestApp;

before(async () => {
  t = await makeApp({ limits: { bodyMb: 1, bulkItems: 100, csvRows: 50, responseMb: 1 } });
  defaults = await makeApp();
});
after(async () => {
  await t.close();
  await defaults.close();
});

async function tenantCount(app: TestApp): Promise<number> {
  return (await app.call('GET', '/api/tenancy/tenants/?limit=1')).body.count;
}

const csv = (rows: number, prefix: string) => ['name', ...Array.from({ length: rows }, (_, i) => `${prefix}-${i}`)].join('\n');

describe('POST /api/tenancy/tenants/ over the limits', () => {
  it('should create a list of exactly MAX_BULK_ITEMS objects', async () => {
    const res = await t.call('POST', '/api/tenancy/tenants/', Array.from({ length: 100 }, (_, i) => ({ name: `ok-${i}` })));
    assert.equal(res.status, 201, res.raw);
    assert.equal(res.body.length, 100);
  });

  it('should refuse one object more with a 413 and write nothing', async () => {
    const before = await tenantCount(t);
    const res = await t.call('POST', '/api/tenancy/tenants/', Array.from({ length: 101 }, (_, i) => ({ name: `over-${i}` })));
    assert.equal(res.status, 413, res.raw);
    assert.deepEqual(res.body, { detail: 'A request may carry at most 100 objects (MAX_BULK_ITEMS).' });
    assert.equal(await tenantCount(t), before);
  });

  it('should refuse bulk PATCH and DELETE lists over the limit with a 413', async () => {
    const items = Array.from({ length: 101 }, () => ({ id: '00000000-0000-4000-8000-000000000000' }));
    for (const method of ['PATCH', 'PUT', 'DELETE'] as const) {
      const res = await t.call(method, '/api/tenancy/tenants/', items);
      assert.equal(res.status, 413, `${method}: ${res.raw}`);
      assert.deepEqual(res.body, { detail: 'A request may carry at most 100 objects (MAX_BULK_ITEMS).' });
    }
  });

  it('should refuse a body over MAX_BODY_MB with a 413', async () => {
    const before = await tenantCount(t);
    const res = await t.call('POST', '/api/tenancy/tenants/', { name: 'big', description: 'x'.repeat(1024 * 1024) });
    assert.equal(res.status, 413, res.raw);
    assert.deepEqual(res.body, { detail: 'Request body is larger than 1 MB (MAX_BODY_MB).' });
    assert.equal(await tenantCount(t), before);
  });

  it('should refuse one object holding more JSON values than the limit allows', async () => {
    const res = await t.call('POST', '/api/tenancy/tenants/', { name: 'deep', tags: Array.from({ length: 100 * 100 }, () => 0) });
    assert.equal(res.status, 413, res.raw);
    assert.deepEqual(res.body, { detail: 'A request body may hold at most 10000 JSON values (100 per object of MAX_BULK_ITEMS).' });
  });

  it('should import exactly MAX_CSV_ROWS rows and refuse one more with a 413', async () => {
    const headers = { 'content-type': 'text/csv', accept: 'application/json' };
    const ok = await t.call('POST', '/api/tenancy/tenants/', csv(50, 'csv'), { headers });
    assert.equal(ok.status, 201, ok.raw);
    const before = await tenantCount(t);
    const res = await t.call('POST', '/api/tenancy/tenants/', csv(51, 'csv-over'), { headers });
    assert.equal(res.status, 413, res.raw);
    assert.deepEqual(res.body, { detail: 'A CSV import may carry at most 50 rows (MAX_CSV_ROWS).' });
    assert.equal(await tenantCount(t), before);
  });
});

describe('the bodies of issue 17 with the default limits', () => {
  it('should refuse 3.1 million empty objects (9.4 MB) with a 413 and keep serving', async () => {
    const body = `[${Array(3_100_000).fill('{}').join(',')}]`;
    const [res, health] = await Promise.all([
      defaults.call('POST', '/api/tenancy/tenants/', body),
      defaults.call('GET', '/health/', undefined, { token: null }),
    ]);
    assert.equal(res.status, 413, res.raw);
    assert.deepEqual(res.body, { detail: 'A request may carry at most 10000 objects (MAX_BULK_ITEMS).' });
    assert.equal(health.status, 200);
    assert.equal(await tenantCount(defaults), 0);
  });

  it('should refuse a CSV of 2 million rows (4 MB) with a 413', async () => {
    const res = await defaults.call('POST', '/api/tenancy/tenants/', `name\n${Array(2_000_000).fill('x').join('\n')}`, { headers: { 'content-type': 'text/csv', accept: 'application/json' } });
    assert.equal(res.status, 413, res.raw);
    assert.deepEqual(res.body, { detail: 'A CSV import may carry at most 10000 rows (MAX_CSV_ROWS).' });
    assert.equal(await tenantCount(defaults), 0);
  });
});

describe('responses with nested objects over MAX_RESPONSE_MB', () => {
  it('should refuse a page whose nested objects pass the limit with a 400, and serve it at a smaller depth', async () => {
    // A chain of 12 locations with 20 kB comments: at depth 10 each embeds up to 10 ancestors (about 2.4 MB).
    const type = await create(t, '/api/dcim/location-types/', { name: 'Level', nestable: true });
    let parent: string | null = null;
    for (let i = 0; i < 12; i += 1) {
      const location: { id: string } = await create(t, '/api/dcim/locations/', { name: `level-${i}`, location_type: type.id, status: 'Active', parent, comments: 'c'.repeat(20_000) });
      parent = location.id;
    }
    const deep = await t.call('GET', '/api/dcim/locations/?depth=10');
    assert.equal(deep.status, 400, deep.raw.slice(0, 200));
    assert.deepEqual(deep.body, { detail: 'The response would be larger than 1 MB (MAX_RESPONSE_MB); ask for a smaller depth or limit.' });
    const flat = await t.call('GET', '/api/dcim/locations/?depth=1');
    assert.equal(flat.status, 200);
    assert.equal(flat.body.results.length, 12);
    const detail = await t.call('GET', `/api/dcim/locations/${parent}/?depth=10`);
    assert.equal(detail.status, 200, 'one object with its 10 ancestors stays under 1 MB');
    assert.equal(detail.body.parent.parent.name, 'level-9');
  });
});
