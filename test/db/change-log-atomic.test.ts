import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeApp } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';
import { CHANGE_BATCH } from '../../src/ops/write/changelog.js';
import type { Exec } from '../../src/db/store.js';
import type { ResolvedModel, Row } from '../../src/core/registry/types.js';

// A bulk write's change records go in CHANGE_BATCH at a time, the next batch encoded while the last is
// written: a batch that fails must still fail the whole write, nothing of it left behind.
let t: TestApp;
before(async () => {
  t = await makeApp();
});
after(() => t.close());

/** Objects of a bulk write whose change records take three batches, the last one partial. */
const SIZE = 2 * CHANGE_BATCH + CHANGE_BATCH / 2;

/** Makes the `n`th change-record insert from now on fail (once). */
function failChangeBatch(n: number): () => void {
  const store = t.app.services.store;
  const insert = store.insert.bind(store);
  let seen = 0;
  store.insert = async (exec: Exec, model: ResolvedModel, rows: Row[]) => {
    if (model.id === 'extras.objectchange' && ++seen === n) throw new Error(`change batch ${n} refused`);
    return insert(exec, model, rows);
  };
  return () => { store.insert = insert; };
}

async function counts(): Promise<[number, number]> {
  const tenants = (await t.call('GET', '/api/tenancy/tenants/?limit=1')).body.count;
  const changes = (await t.call('GET', '/api/extras/object-changes/?limit=1')).body.count;
  return [tenants, changes];
}

describe('change log batches', () => {
  for (const n of [1, 2, 3]) {
    it(`should write nothing when change batch ${n} of 3 fails`, async () => {
      const before = await counts();
      const restore = failChangeBatch(n);
      try {
        const res = await t.call('POST', '/api/tenancy/tenants/', Array.from({ length: SIZE }, (_, i) => ({ name: `atomic-${n}-${i}` })));
        assert.equal(res.status, 500);
      } finally {
        restore();
      }
      assert.deepEqual(await counts(), before);
    });
  }

  it('should write every record when no batch fails', async () => {
    const [tenants, changes] = await counts();
    const res = await t.call('POST', '/api/tenancy/tenants/', Array.from({ length: SIZE }, (_, i) => ({ name: `whole-${i}` })));
    assert.equal(res.status, 201);
    assert.deepEqual(await counts(), [tenants + SIZE, changes + SIZE]);
  });
});
