/** One batch being collected: its keys in arrival order and the callers waiting on each. */
type Pending<K, V> = { keys: K[]; waiters: Map<K, { resolve: (v: V) => void; reject: (e: unknown) => void }[]> };

/** Loads many keys at once; returns a value for each key it was given (missing keys get `fallback`). */
export type BatchLoad<K, V> = (keys: K[]) => Promise<Map<K, V>>;

/**
 * Collects the loads that GraphQL's executor asks for while it completes one level of a query
 * (every object of a list calls its resolvers before any database answer arrives) and runs each
 * batch once, after the promise jobs of that level have settled, as DataLoader schedules. A
 * level of N objects then costs one statement per batch key, not N.
 */
export class Batcher {
  private readonly pending = new Map<string, Pending<unknown, unknown>>();

  /** The value of `key` in the batch named `name`, loaded with the other keys asked for in the same tick. */
  load<K, V>(name: string, key: K, run: BatchLoad<K, V>, fallback: V): Promise<V> {
    let batch = this.pending.get(name) as Pending<K, V> | undefined;
    if (!batch) {
      batch = { keys: [], waiters: new Map() };
      this.pending.set(name, batch as Pending<unknown, unknown>);
      this.schedule(name, batch, run, fallback);
    }
    const current = batch;
    return new Promise<V>((resolve, reject) => {
      const list = current.waiters.get(key);
      if (list) list.push({ resolve, reject });
      else {
        current.keys.push(key);
        current.waiters.set(key, [{ resolve, reject }]);
      }
    });
  }

  private schedule<K, V>(name: string, batch: Pending<K, V>, run: BatchLoad<K, V>, fallback: V): void {
    // After the current promise jobs (the rest of this level), then after the ticks they queue.
    void Promise.resolve().then(() => process.nextTick(() => {
      if (this.pending.get(name) === batch) this.pending.delete(name);
      run(batch.keys).then(
        (values) => {
          for (const [key, list] of batch.waiters) for (const w of list) w.resolve(values.has(key) ? (values.get(key) as V) : fallback);
        },
        (err) => {
          for (const list of batch.waiters.values()) for (const w of list) w.reject(err);
        },
      );
    }));
  }
}
