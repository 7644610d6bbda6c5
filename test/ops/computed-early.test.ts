import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DB_URL, create, makeApp } from '../helpers/app.js';
import { countBatches } from '../helpers/count-batches.js';
import type { TestApp } from '../helpers/app.js';

/**
 * Computed values (an IP address's NAT list) of a page's own rows are read from the start, beside
 * the links and the first wave of related rows; those of rows rendered below the page's (a NAT
 * inside address at depth 1) after the waves. Either way each row gets its own values.
 */

const NO_CACHE = { headers: { 'cache-control': 'no-cache' } };
let t: TestApp;
let inside: any;
let outside: any;

before(async () => {
  t = await makeApp();
  await create(t, '/api/ipam/prefixes/', [{ prefix: '10.0.0.0/24', namespace: 'Global', status: 'Active' }, { prefix: '192.0.2.0/24', namespace: 'Global', status: 'Active' }]);
  inside = await create(t, '/api/ipam/ip-addresses/', { address: '10.0.0.1/24', namespace: 'Global', status: 'Active' });
  outside = await create(t, '/api/ipam/ip-addresses/', { address: '192.0.2.1/24', namespace: 'Global', status: 'Active', nat_inside: inside.id });
});
after(() => t.close());

/** The NAT list's ids of one rendered address. */
const natIds = (ip: any) => ip.nat_outside_list.map((o: any) => o.id);

describe('computed values of a page', () => {
  it("should render the page's own rows and the rows below them with their own NAT lists", async () => {
    const page = await t.call('GET', '/api/ipam/ip-addresses/?limit=10&depth=1', undefined, NO_CACHE);
    const byId = new Map(page.body.results.map((ip: any) => [ip.id, ip]));
    assert.deepEqual(natIds(byId.get(inside.id)), [outside.id]);
    assert.deepEqual(natIds(byId.get(outside.id)), []);
    assert.deepEqual(natIds((byId.get(outside.id) as any).nat_inside), [outside.id], 'the nested inside address (also on the page)');
    const alone = await t.call('GET', `/api/ipam/ip-addresses/?id=${outside.id}&depth=1`, undefined, NO_CACHE);
    assert.deepEqual(natIds(alone.body.results[0]), []);
    assert.deepEqual(natIds(alone.body.results[0].nat_inside), [outside.id], 'the nested inside address (only below the page)');
  });

  it('should read NAT lists beside the links, and below the page with the next wave, on PostgreSQL', { skip: DB_URL.startsWith('postgres') ? false : 'runs with DATABASE_URL=postgres://...' }, async () => {
    const batchesOf = async (path: string) => {
      await t.call('GET', path, undefined, NO_CACHE);
      const { result: res, batches } = await countBatches(() => t.call('GET', path, undefined, NO_CACHE));
      assert.equal(res.status, 200);
      return batches;
    };
    // The token with the page and its count; the links and counts with the NAT lists and the namespace.
    assert.equal(await batchesOf('/api/ipam/ip-addresses/?limit=10'), 2);
    // The token; the page and its count; the links, counts, NAT lists and the first wave (the
    // inside address among them); the second wave with the inside address's NAT list.
    assert.equal(await batchesOf(`/api/ipam/ip-addresses/?id=${outside.id}&depth=1`), 4);
  });
});
