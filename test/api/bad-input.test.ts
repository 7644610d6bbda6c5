import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeApp } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';

/** Inputs the fuzz test (test/fuzz) found answered with a 500 on PostgreSQL, each now a 4xx on both databases. */
let t: TestApp;

before(async () => {
  t = await makeApp();
});
after(() => t.close());

async function tenantCount(): Promise<number> {
  return (await t.call('GET', '/api/tenancy/tenants/?limit=1')).body.count;
}

describe('NUL characters', () => {
  it('should refuse them in a body field with a 400 naming the field, and write nothing', async () => {
    const before = await tenantCount();
    const res = await t.call('POST', '/api/tenancy/tenants/', { name: 'a\u0000b', description: 'fine' });
    assert.equal(res.status, 400, res.raw);
    assert.deepEqual(res.body, { name: ['Null characters are not allowed.'] });
    const list = await t.call('POST', '/api/tenancy/tenants/', [{ name: 'ok' }, { name: 'x', custom_fields: { k: ['\u0000'] } }]);
    assert.equal(list.status, 400, list.raw);
    assert.deepEqual(list.body, [{}, { custom_fields: ['Null characters are not allowed.'] }]);
    assert.equal(await tenantCount(), before);
  });

  it('should refuse them in a CSV import', async () => {
    const res = await t.call('POST', '/api/tenancy/tenants/', 'name\nfine\nbad\u0000', { headers: { 'content-type': 'text/csv', accept: 'application/json' } });
    assert.equal(res.status, 400, res.raw);
    assert.deepEqual(res.body, [{}, { name: ['Null characters are not allowed.'] }]);
  });

  it('should refuse them in a filter value with a 400 naming the filter', async () => {
    const res = await t.call('GET', '/api/tenancy/tenants/?name__ic=%00');
    assert.equal(res.status, 400, res.raw);
    assert.deepEqual(res.body, { name__ic: ['Null characters are not allowed.'] });
  });

  it('should answer a detail path holding one with a 404', async () => {
    const res = await t.call('PATCH', '/api/tenancy/tenants/a%00b/', { description: 'x' });
    assert.equal(res.status, 404, res.raw);
    const template = await t.call('DELETE', '/api/extras/export-templates/a%00b/');
    assert.equal(template.status, 404, template.raw);
  });
});

describe('natural keys whose text no stored value could equal', () => {
  for (const [path, name] of [['/api/dcim/modules/consoleport-Name/', 'Module'], ['/api/dcim/rack-reservations/Contact-Alice/', 'RackReservation'], ['/api/dcim/cables/0/', 'Cable'], ['/api/users/tokens/interface-Name/', 'Token']] as const) {
    it(`should answer PATCH and DELETE ${path} with a 404`, async () => {
      for (const method of ['PATCH', 'DELETE'] as const) {
        const res = await t.call(method, path, method === 'PATCH' ? { description: 'x' } : undefined);
        assert.equal(res.status, 404, `${method}: ${res.raw}`);
        assert.deepEqual(res.body, { detail: `No ${name} matches the given query.` });
      }
    });
  }

  it('should refuse a reference by such a key with a 400 naming the field', async () => {
    const res = await t.call('POST', '/api/ipam/vlan-location-assignments/', { vlan: 'poweroutletT-Name', location: '1e309' });
    assert.equal(res.status, 400, res.raw);
    assert.ok(res.body.vlan && res.body.location, res.raw);
  });
});

describe('JSON nested deeper than 256 levels', () => {
  it('should be a 400 parse error', async () => {
    let deep: unknown = 1;
    for (let i = 0; i < 300; i += 1) deep = [deep];
    const res = await t.call('POST', '/api/tenancy/tenants/', { name: 'deep', custom_fields: { k: deep } });
    assert.equal(res.status, 400, res.raw);
    assert.deepEqual(res.body, { detail: 'JSON parse error - lists and objects nested deeper than 256 levels' });
  });
});
