import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import { assertRefused } from '../../helpers/refusals.js';
import type { TestApp } from '../../helpers/app.js';

let t: TestApp;
const w: Record<string, any> = {};

/** Circuit c1 terminates on both sides at a site, c2 on side A at the site and on side Z at a provider network, c3 nowhere. */
before(async () => {
  t = await makeApp();
  const type = await create(t, '/api/dcim/location-types/', { name: 'Site', content_types: ['circuits.circuittermination'] });
  w.site = await create(t, '/api/dcim/locations/', { name: 'site-1', location_type: type.id, status: 'Active' });
  w.other = await create(t, '/api/dcim/locations/', { name: 'site-2', location_type: type.id, status: 'Active' });
  const provider = await create(t, '/api/circuits/providers/', { name: 'isp' });
  const ctype = await create(t, '/api/circuits/circuit-types/', { name: 'transit' });
  w.pnet = await create(t, '/api/circuits/provider-networks/', { name: 'backbone', provider: provider.id });
  w.idle = await create(t, '/api/circuits/provider-networks/', { name: 'idle', provider: provider.id });
  for (const cid of ['c1', 'c2', 'c3']) w[cid] = await create(t, '/api/circuits/circuits/', { cid, provider: provider.id, circuit_type: ctype.id, status: 'Active' });
  const term = (circuit: string, side: string, at: Record<string, string>) => create(t, '/api/circuits/circuit-terminations/', { circuit: w[circuit].id, term_side: side, ...at });
  w.c1a = await term('c1', 'A', { location: w.site.id });
  w.c1z = await term('c1', 'Z', { location: w.site.id });
  w.c2a = await term('c2', 'A', { location: w.site.id });
  w.c2z = await term('c2', 'Z', { provider_network: w.pnet.id });
});
after(() => t.close());

/** The `key` of every result of a filtered list (sorted), failing on any non-200. */
async function found(path: string, key = 'cid'): Promise<string[]> {
  const res = await t.call('GET', path);
  assert.equal(res.status, 200, `${path}: ${res.raw}`);
  assert.equal(res.body.count, res.body.results.length);
  return res.body.results.map((r: Record<string, string>) => r[key]).sort();
}

const C = '/api/circuits/circuits/';

describe('GET /api/circuits/circuits/?circuit_terminations=', () => {
  it('should find the circuits of any of the given terminations, each once', async () => {
    assert.deepEqual(await found(`${C}?circuit_terminations=${w.c1a.id}`), ['c1']);
    assert.deepEqual(await found(`${C}?circuit_terminations=${w.c1a.id}&circuit_terminations=${w.c2z.id}`), ['c1', 'c2']);
    assert.deepEqual(await found(`${C}?circuit_terminations=${w.c1a.id}&circuit_terminations=${w.c1z.id}`), ['c1']);
  });

  it('should exclude the circuits of the given terminations with __n', async () => {
    assert.deepEqual(await found(`${C}?circuit_terminations__n=${w.c1a.id}`), ['c2', 'c3']);
    assert.deepEqual(await found(`${C}?circuit_terminations__n=${w.c1a.id}&circuit_terminations__n=${w.c2a.id}`), ['c3']);
  });

  it('should find circuits with or without terminations with __isnull, and ignore a value that is neither', async () => {
    assert.deepEqual(await found(`${C}?circuit_terminations__isnull=true`), ['c3']);
    assert.deepEqual(await found(`${C}?circuit_terminations__isnull=False`), ['c1', 'c2']);
    for (const value of ['1', 'yes', '']) assert.deepEqual(await found(`${C}?circuit_terminations__isnull=${value}`), ['c1', 'c2', 'c3'], value);
  });

  it('should refuse a value that is no UUID, and one naming no termination or not in canonical form', async () => {
    const refused = async (query: string) => {
      const res = await t.call('GET', `${C}?${query}`);
      assert.equal(res.status, 400, query);
      return res.body;
    };
    assert.deepEqual(await refused('circuit_terminations=bogus'), { circuit_terminations: ['“bogus” is not a valid UUID.'] });
    assert.deepEqual(await refused('circuit_terminations='), { circuit_terminations: ['“” is not a valid UUID.'] });
    assert.deepEqual(await refused(`circuit_terminations__n=${w.c1a.id}&circuit_terminations__n=null`), { circuit_terminations__n: ['“null” is not a valid UUID.'] });
    const absent = randomUUID();
    assert.deepEqual(await refused(`circuit_terminations=${absent}`), { circuit_terminations: [`Select a valid choice. ${absent} is not one of the available choices.`] });
    const upper = String(w.c1a.id).toUpperCase();
    assert.deepEqual(await refused(`circuit_terminations=${upper}`), { circuit_terminations: [`Select a valid choice. ${upper} is not one of the available choices.`] });
    assert.deepEqual(await refused(`circuit_terminations=${w.c1.id}`), { circuit_terminations: [`Select a valid choice. ${w.c1.id} is not one of the available choices.`] });
    assert.deepEqual(await refused(`circuit_terminations__ic=${w.c1a.id}`), { circuit_terminations__ic: ['Unknown filter field'] });
  });
});

describe('circuit_terminations of provider networks and locations', () => {
  it('should filter provider networks and locations the same way', async () => {
    assert.deepEqual(await found(`/api/circuits/provider-networks/?circuit_terminations=${w.c2z.id}`, 'name'), ['backbone']);
    assert.deepEqual(await found('/api/circuits/provider-networks/?circuit_terminations__isnull=true', 'name'), ['idle']);
    assert.deepEqual(await found(`/api/dcim/locations/?circuit_terminations=${w.c1a.id}&circuit_terminations=${w.c2a.id}`, 'name'), ['site-1']);
    assert.deepEqual(await found('/api/dcim/locations/?circuit_terminations__isnull=false', 'name'), ['site-1']);
    const res = await t.call('GET', '/api/dcim/locations/?circuit_terminations=site-1');
    assertRefused(res, 400, { circuit_terminations: ['“site-1” is not a valid UUID.'] });
  });
});
