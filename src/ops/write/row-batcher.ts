import type { Exec } from '../../db/store.js';
import type { Row } from '../../core/registry/types.js';
import type { Services } from '../services.js';

type Waiter = { resolve: (row: Row | undefined) => void; reject: (err: unknown) => void };

/**
 * Reads for the rules of one write, shared by all its objects: `get` calls made while the
 * objects' rules run side by side are gathered and sent as one `IN (...)` query per model (on
 * the next turn of the event loop), and each row and `find` result is read once per write.
 * Nothing is written while the rules run, so what was read stays true.
 */
export class RowBatcher {
  private readonly rows = new Map<string, Map<string, Promise<Row | undefined>>>();
  private readonly found = new Map<string, Promise<Row[]>>();
  private pending = new Map<string, Map<string, Waiter>>();
  private scheduled = false;

  constructor(private readonly services: Services, private readonly exec: Exec) {}

  /** The row of `modelId` with this id (a copy the caller may change), or undefined. */
  async get(modelId: string, id: unknown): Promise<Row | undefined> {
    if (typeof id !== 'string') return undefined;
    const cache = this.rows.get(modelId) ?? new Map<string, Promise<Row | undefined>>();
    this.rows.set(modelId, cache);
    let promise = cache.get(id);
    if (!promise) {
      promise = new Promise<Row | undefined>((resolve, reject) => this.enqueue(modelId, id, { resolve, reject }));
      cache.set(id, promise);
    }
    const row = await promise;
    return row ? { ...row } : undefined;
  }

  /** Rows matching column equalities, read once per distinct predicate. */
  async find(modelId: string, where: Record<string, unknown>): Promise<Row[]> {
    const key = `${modelId} ${JSON.stringify(where)}`;
    let promise = this.found.get(key);
    if (!promise) {
      promise = this.services.store.where(this.exec, this.services.registry.get(modelId), where);
      this.found.set(key, promise);
    }
    return (await promise).map((r) => ({ ...r }));
  }

  private enqueue(modelId: string, id: string, waiter: Waiter): void {
    const ids = this.pending.get(modelId) ?? new Map<string, Waiter>();
    ids.set(id, waiter);
    this.pending.set(modelId, ids);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => void this.flush());
  }

  /** One query per model for every id asked for since the last flush. */
  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = new Map();
    this.scheduled = false;
    for (const [modelId, waiters] of batch) {
      try {
        const rows = await this.services.store.byIds(this.exec, this.services.registry.get(modelId), [...waiters.keys()]);
        const byId = new Map(rows.map((r) => [r.id, r]));
        for (const [id, waiter] of waiters) waiter.resolve(byId.get(id));
      } catch (err) {
        for (const waiter of waiters.values()) waiter.reject(err);
      }
    }
  }
}
