import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { memoByGeneration } from '../../src/db/generation-memo.js';
import type { Dialect } from '../../src/db/dialects/dialect.js';

/** A dialect whose generation read costs a statement (as PostgreSQL's), counting the reads. */
function paidGeneration(generation: { value: string }) {
  let reads = 0;
  const dialect = { freeGeneration: false, writeGeneration: async () => { reads += 1; return generation.value; } } as unknown as Dialect;
  return { dialect, reads: () => reads };
}

describe('memoByGeneration', () => {
  it('should load every time where reading the generation costs a statement and none was given', async () => {
    const { dialect, reads } = paidGeneration({ value: 'g1' });
    let loads = 0;
    const load = async () => ++loads;
    await memoByGeneration(dialect, 'k', load);
    await memoByGeneration(dialect, 'k', load);
    assert.equal(loads, 2);
    assert.equal(reads(), 0);
  });

  it('should keep a value for the generation a request already read, and load again when it moves', async () => {
    const generation = { value: 'g1' };
    const { dialect, reads } = paidGeneration(generation);
    let loads = 0;
    const load = async () => ++loads;
    assert.equal(await memoByGeneration(dialect, 'k', load, Promise.resolve('g1')), 1);
    assert.equal(await memoByGeneration(dialect, 'k', load, Promise.resolve('g1')), 1);
    assert.equal(await memoByGeneration(dialect, 'k', load, Promise.resolve('g2')), 2);
    assert.equal(reads(), 0);
  });
});
