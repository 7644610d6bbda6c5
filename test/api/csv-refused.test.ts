import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';

const CSV_IN = { 'content-type': 'text/csv' };
/** Columns CSV cannot carry (README "CSV, OpenAPI, ..."; api-behaviour.md section 12). */
const REFUSED = ['relationships', 'computed_fields', 'custom_fields'];

let t: TestApp;
let tenant: any;
before(async () => {
  t = await makeApp();
  [tenant] = await create(t, '/api/tenancy/tenants/', [{ name: 'Kept' }]);
});
after(() => t.close());

describe('CSV columns that CSV cannot carry', () => {
  for (const column of REFUSED) {
    it(`should refuse a ${column} column on POST with a 400 naming it, writing nothing`, async () => {
      const res = await t.call('POST', '/api/tenancy/tenants/', `name,${column}\r\nNew,{}\r\n`, { headers: CSV_IN });
      assert.equal(res.status, 400, res.raw);
      assert.match(res.body.detail, new RegExp(`^Column "${column}" cannot be imported from CSV: .+`));
      assert.equal((await t.call('GET', '/api/tenancy/tenants/?name=New')).body.count, 0);
    });

    it(`should refuse a ${column} column on a list PATCH, leaving the object unchanged`, async () => {
      const res = await t.call('PATCH', '/api/tenancy/tenants/', `id,description,${column}\r\n${tenant.id},changed,{}\r\n`, { headers: CSV_IN });
      assert.equal(res.status, 400, res.raw);
      assert.match(res.body.detail, new RegExp(`"${column}"`));
      assert.equal((await t.call('GET', `/api/tenancy/tenants/${tenant.id}/`)).body.description, '');
    });
  }

  it('should still take custom fields as cf_<key> columns', async () => {
    const res = await t.call('POST', '/api/tenancy/tenants/', 'name,cf_unknown\r\nWith CF,x\r\n', { headers: CSV_IN });
    assert.equal(res.status, 201, res.raw);
  });
});
