import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RowBatcher } from '../../src/ops/write/row-batcher.js';
import type { Services } from '../../src/ops/services.js';
import type { Exec } from '../../src/db/store.js';

/** The rules of a bulk write read rows through one RowBatcher: each row once, each caller its own copy. */

function batcher(rows: Record<string, { id: string; name: string }>) {
  const reads: string[][] = [];
  const services = {
    registry: { get: (id: string) => ({ id }) },
    store: { byIds: async (_exec: unknown, _model: unknown, ids: string[]) => { reads.push(ids); return ids.flatMap((id) => (rows[id] ? [{ ...rows[id] }] : [])); } },
  } as unknown as Services;
  return { reader: new RowBatcher(services, {} as Exec), reads };
}

describe('RowBatcher.get', () => {
  it('should read rows asked for together in one statement, and a row already read not again', async () => {
    const { reader, reads } = batcher({ a: { id: 'a', name: 'A' }, b: { id: 'b', name: 'B' } });
    const [a, b, missing] = await Promise.all([reader.get('m', 'a'), reader.get('m', 'b'), reader.get('m', 'c')]);
    assert.deepEqual([a, b, missing], [{ id: 'a', name: 'A' }, { id: 'b', name: 'B' }, undefined]);
    assert.deepEqual(await reader.get('m', 'a'), { id: 'a', name: 'A' });
    assert.equal(await reader.get('m', 'c'), undefined);
    assert.deepEqual(reads, [['a', 'b', 'c']]);
  });

  it('should give each caller its own copy, before and after the read', async () => {
    const { reader } = batcher({ a: { id: 'a', name: 'A' } });
    const [first, second] = await Promise.all([reader.get('m', 'a'), reader.get('m', 'a')]);
    first!.name = 'changed';
    assert.equal(second!.name, 'A');
    const third = await reader.get('m', 'a');
    assert.equal(third!.name, 'A');
    third!.name = 'changed again';
    assert.equal((await reader.get('m', 'a'))!.name, 'A');
  });

  it('should answer undefined for an id that is not a string, without a read', async () => {
    const { reader, reads } = batcher({});
    assert.equal(await reader.get('m', null), undefined);
    assert.deepEqual(reads, []);
  });
});
