import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ScopedStorage } from '../../src/core/scoped-storage.js';

/** A promise and its resolve function. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => undefined as void;
  const promise = new Promise<void>((resolve) => { open = resolve; });
  return { promise, open };
}

describe('ScopedStorage', () => {
  it('should keep each run\'s store across awaits while another run ends before it', async () => {
    const storage = new ScopedStorage<string>();
    const [first, second] = [gate(), gate()];
    const seen: (string | undefined)[] = [];
    const a = storage.run('a', async () => {
      await first.promise;
      seen.push(storage.getStore());
    });
    const b = storage.run('b', async () => {
      await second.promise;
      await new Promise((resolve) => setImmediate(resolve));
      seen.push(storage.getStore());
    });
    assert.equal(storage.inFlight(), 2);
    first.open();
    await a;
    assert.equal(storage.inFlight(), 1);
    second.open();
    await b;
    assert.deepEqual(seen, ['a', 'b']);
    assert.equal(storage.inFlight(), 0);
    assert.equal(storage.getStore(), undefined);
  });

  it('should serve a store again after every run had ended', async () => {
    const storage = new ScopedStorage<number>();
    await storage.run(1, async () => undefined);
    assert.equal(await storage.run(2, async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return storage.getStore();
    }), 2);
    assert.equal(storage.inFlight(), 0);
  });

  it('should count a run whose callback throws at once as ended', async () => {
    const storage = new ScopedStorage<number>();
    assert.throws(() => storage.run(1, () => { throw new Error('boom'); }), /boom/);
    await assert.rejects(storage.run(1, async () => { throw new Error('later'); }), /later/);
    assert.equal(storage.inFlight(), 0);
  });
});
