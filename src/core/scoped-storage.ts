import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * An AsyncLocalStorage that is enabled only while one of its `run`s is in flight. On Node 20 an
 * enabled storage keeps the promise hooks on for every promise the process makes, whether it
 * reads the storage or not (a few percent of a small GET, through `promiseInitHook`); the
 * storages of the service mark transactions and background work, so a process that only reads
 * ran with them on because of its start-up transactions. Here the storage is disabled again
 * when its last run settles, and `run` enables it again.
 *
 * A store is seen by what its run's callback does and awaits until that callback's promise
 * settles; work the callback starts and leaves running may lose the store once no run is in
 * flight (the storages here are read inside their runs: a transaction's callback, a runner's
 * statements).
 */
export class ScopedStorage<S> {
  private readonly storage = new AsyncLocalStorage<S>();
  private running = 0;

  /** The store of the run the caller is in, or undefined. */
  getStore(): S | undefined {
    return this.storage.getStore();
  }

  /** Runs `fn` with `store` (what it awaits or starts sees it too) and returns its promise. */
  run<T>(store: S, fn: () => Promise<T>): Promise<T> {
    this.running += 1;
    let result: Promise<T>;
    try {
      result = this.storage.run(store, fn);
    } catch (err) {
      this.settled();
      throw err;
    }
    return result.finally(() => this.settled());
  }

  /** Runs in flight (tests). */
  inFlight(): number {
    return this.running;
  }

  private settled(): void {
    this.running -= 1;
    if (this.running === 0) this.storage.disable();
  }
}
