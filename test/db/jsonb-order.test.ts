import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { inJsonbOrder } from '../../src/db/dialects/jsonb-order.js';
import { makeApp } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';

// Change snapshots are kept as json text and read back in jsonb's key order (jsonb-order.ts):
// the order must be PostgreSQL's own, whatever the keys.
let t: TestApp;
before(async () => {
  t = await makeApp();
});
after(() => t.close());

const SAMPLES = [
  { b: 1, aa: 2, a: 3, ab: { zz: [1, { y: 1, x: 2 }], z: null }, '': 'empty' },
  { 'é': 1, e: 2, ee: 3, 'ü': { 'ß': 1, ss: 2 }, Z: 4, z: 5, 'Z ': 6 },
  { '10': 'ten', '9': 'nine', a: 'a', '__proto__': { polluted: true }, list: [{ bb: 1, a: 2 }, 'x', 3.5, true] },
  { custom_fields: { zeta: 'z', alpha: 1, mid: 'm', b: 'bee' }, tags: ['b', 'a'], display: 'A → B' },
];

describe('jsonb key order', () => {
  it("should order keys as PostgreSQL's jsonb does", async (ctx) => {
    if (t.app.services.dialect.name !== 'postgres') return ctx.skip('PostgreSQL only');
    for (const sample of SAMPLES) {
      const text = JSON.stringify(sample);
      const rows = await sql<{ v: string }>`SELECT (${text}::jsonb)::text AS v`.execute(t.app.services.dialect.db);
      assert.equal(JSON.stringify(inJsonbOrder(JSON.parse(text))), JSON.stringify(JSON.parse(rows.rows[0].v)));
    }
  });

  it('should keep a "__proto__" key a key', () => {
    const out = inJsonbOrder(JSON.parse('{"__proto__": {"polluted": true}, "a": 1}')) as Record<string, unknown>;
    assert.deepEqual(Object.keys(out), ['a', '__proto__']);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.getPrototypeOf(out), Object.prototype);
  });
});
