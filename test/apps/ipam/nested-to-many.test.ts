import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { countStatements, create, makeApp } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';

const IP = '/api/ipam/ip-addresses/';

let t: TestApp;
let vrf: any;

/** Statements executed by one GET (the response cache is bypassed). */
const countQueries = (url: string): Promise<number> => countStatements(t, url);

/** Ten /24 prefixes in VRF red, three addresses in each. */
before(async () => {
  t = await makeApp();
  vrf = await create(t, '/api/ipam/vrfs/', { name: 'red', rd: '65000:1' });
  await create(t, '/api/extras/tags/', { name: 'gold', content_types: ['ipam.prefix'] });
  const prefixes = await create(t, '/api/ipam/prefixes/', Array.from({ length: 10 }, (_, i) => ({ prefix: `10.30.${i}.0/24`, status: 'Active', tags: ['gold'] })));
  await create(t, '/api/ipam/vrf-prefix-assignments/', prefixes.map((p: any) => ({ vrf: vrf.id, prefix: p.id })));
  await create(t, IP, Array.from({ length: 30 }, (_, i) => ({ address: `10.30.${i % 10}.${i + 1}/24`, status: 'Active', namespace: 'Global' })));
});
after(() => t.close());

describe('GET /api/ipam/ip-addresses/ nested parent prefix', () => {
  it('should render the parent prefix\'s vrfs as references at depth 1, and no undeclared to-many field', async () => {
    const ip = (await t.call('GET', `${IP}?depth=1&limit=1`)).body.results[0];
    assert.deepEqual(ip.parent.vrfs.map((v: any) => v.id), [vrf.id]);
    assert.deepEqual(Object.keys(ip.parent.vrfs[0]), ['id', 'object_type', 'url']);
    assert.equal(ip.parent.tags, undefined, 'tags stay top-level only');
    assert.equal(ip.parent.locations, undefined);
  });

  it('should render the parent prefix\'s vrfs in full at depth 2', async () => {
    const ip = (await t.call('GET', `${IP}?depth=2&limit=1`)).body.results[0];
    assert.equal(ip.parent.vrfs[0].name, 'red');
    assert.equal(ip.parent.vrfs[0].rd, '65000:1');
    assert.equal(ip.parent.vrfs[0].prefixes, undefined, 'the VRF\'s own to-many fields stay out');
  });

  it('should load the nested links with a fixed number of statements whatever the page size', async () => {
    for (const depth of [1, 2]) {
      const small = await countQueries(`${IP}?depth=${depth}&limit=2`);
      const large = await countQueries(`${IP}?depth=${depth}&limit=30`);
      assert.ok(large <= small, `depth ${depth}: limit=2 took ${small} statements, limit=30 took ${large}`);
    }
  });
});
