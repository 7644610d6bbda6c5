import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/core/config.js';
import { create, makeApp } from '../helpers/app.js';
import { assertRefused } from '../helpers/refusals.js';
import type { TestApp } from '../helpers/app.js';

// API-SPEC filtering rule 3: STRICT_FILTERING true (default) refuses an unknown filter parameter
// with 400; false ignores it. A known filter with a bad value is a 400 either way.

const TENANTS = '/api/tenancy/tenants/';

describe('STRICT_FILTERING setting', () => {
  it('should be on by default and off for false, 0, no and off', () => {
    assert.equal(loadConfig({}).strictFiltering, true);
    assert.equal(loadConfig({ STRICT_FILTERING: 'true' }).strictFiltering, true);
    for (const off of ['false', 'FALSE', '0', 'no', 'off']) assert.equal(loadConfig({ STRICT_FILTERING: off }).strictFiltering, false, off);
  });
});

describe('STRICT_FILTERING=false', () => {
  let t: TestApp;
  let acme: any;
  before(async () => {
    t = await makeApp({ strictFiltering: loadConfig({ STRICT_FILTERING: 'false' }).strictFiltering });
    [acme] = await create(t, TENANTS, [{ name: 'acme' }, { name: 'globex' }]);
  });
  after(() => t.close());

  it('should ignore an unknown parameter and list as if it were absent', async () => {
    const res = await t.call('GET', `${TENANTS}?ice_cream_flavor=vanilla`);
    assert.equal(res.status, 200, res.raw);
    assert.deepEqual(res.body.results.map((r: any) => r.name), ['acme', 'globex']);
  });

  it('should still apply the known filters next to an unknown one', async () => {
    const res = await t.call('GET', `${TENANTS}?name=acme&ice_cream_flavor=vanilla&tag__nope=x`);
    assert.equal(res.status, 200, res.raw);
    assert.deepEqual(res.body.results.map((r: any) => r.id), [acme.id]);
  });

  it('should still refuse a bad value of a known filter', async () => {
    assertRefused(await t.call('GET', `${TENANTS}?tenant_group=nowhere&ice_cream_flavor=vanilla`), 400, { tenant_group: ['Select a valid choice. nowhere is not one of the available choices.'] });
  });

  it('should keep relationship side filters strict: an unknown filter there is refused', async () => {
    const res = await t.call('POST', '/api/extras/relationships/', { label: 'f', source_type: 'dcim.location', destination_type: 'tenancy.tenant', source_filter: { flavour: 'x' } });
    assertRefused(res, 400, { source_filter: ["'flavour' is not a valid filter parameter for dcim.Location object"] });
  });
});

describe('STRICT_FILTERING=true (default)', () => {
  let t: TestApp;
  before(async () => {
    t = await makeApp();
  });
  after(() => t.close());

  it('should refuse every unknown parameter by name', async () => {
    assertRefused(await t.call('GET', `${TENANTS}?ice_cream_flavor=vanilla&name=acme&tag__nope=x`), 400, { ice_cream_flavor: ['Unknown filter field'], tag__nope: ['Unknown filter field'] });
  });
});
