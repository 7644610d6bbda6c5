/** A caller waiting on one key (`many` false) or on a list of keys, in their order. */
type Waiter<K, V> = { keys: K[]; many: boolean; resolve: (v: V | V[]) => void; reject: (e: unknown) => void };

/** One batch being collected: its distinct keys in arrival order and the callers waiting on them. */
type Pending<K, V> = { keys: K[]; seen: Set<K>; waiters: Waiter<K, V>[] };

/** Loads many keys at once; returns a value for each key it was given (missing keys get `fallback`). */
export type BatchLoad<K, V> = (keys: K[]) => Promise<Map<K, V>>;

/**
 * Collects the loads that GraphQL's executor asks for while it completes one level of a query
 * (every object of a list calls its resolvers before any database answer arrives) and runs each
 * batch once, after the promise jobs of that level have settled, as DataLoader schedules. A
 * level of N objects then costs one statement per batch key, not N. The level executor asks for
 * a whole level's keys in one call (`loadMany`), into the same batches.
 */
export class Batcher {
  private readonly pending = new Map<string, Pending<unknown, unknown>>();

  /** The value of `key` in the batch named `name`, loaded with the other keys asked for in the same tick. */
  load<K, V>(name: string, key: K, run: BatchLoad<K, V>, fallback: V): Promise<V> {
    return this.wait(name, [key], false, run, fallback) as Promise<V>;
  }

  /** The values of `keys` (in their order, repeats included) in the batch named `name`. */
  loadMany<K, V>(name: string, keys: K[], run: BatchLoad<K, V>, fallback: V): Promise<V[]> {
    return this.wait(name, keys, true, run, fallback) as Promise<V[]>;
  }

  private wait<K, V>(name: string, keys: K[], many: boolean, run: BatchLoad<K, V>, fallback: V): Promise<V | V[]> {
    let batch = this.pending.get(name) as Pending<K, V> | undefined;
    if (!batch) {
      batch = { keys: [], seen: new Set(), waiters: [] };
      this.pending.set(name, batch as Pending<unknown, unknown>);
      this.schedule(name, batch, run, fallback);
    }
    for (const key of keys) {
      if (batch.seen.has(key)) continue;
      batch.seen.add(key);
      batch.keys.push(key);
    }
    const current = batch;
    return new Promise<V | V[]>((resolve, reject) => current.waiters.push({ keys, many, resolve, reject }));
  }

  private schedule<K, V>(name: string, batch: Pending<K, V>, run: BatchLoad<K, V>, fallback: V): void {
    // After the current promise jobs (the rest of this level), then after the ticks they queue.
    void Promise.resolve().then(() => process.nextTick(() => {
      if (this.pending.get(name) === batch) this.pending.delete(name);
      run(batch.keys).then(
        (values) => {
          const valueOf = (key: K) => (values.has(key) ? (values.get(key) as V) : fallback);
          for (const w of batch.waiters) w.resolve(w.many ? w.keys.map(valueOf) : valueOf(w.keys[0]));
        },
        (err) => {
          for (const w of batch.waiters) w.reject(err);
        },
      );
    }));
  }
}
