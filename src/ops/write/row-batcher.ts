import { matchTuples } from '../../db/match-tuples.js';
import { chunk } from '../../db/store.js';
import type { Exec } from '../../db/store.js';
import type { Row } from '../../core/registry/types.js';
import type { Services } from '../services.js';

type Waiter<T> = { resolve: (value: T) => void; reject: (err: unknown) => void };

/** `find` calls on one model with the same columns (and the same null columns), waiting for a flush. */
type FindGroup = { modelId: string; live: string[]; nulls: string[]; asks: { values: unknown[]; waiter: Waiter<Row[]> }[] };

/** A row asked for by id: the read under way, then its answer. */
type Read = { done: boolean; row: Row | undefined; promise: Promise<Row | undefined> };

const NOTHING: Promise<undefined> = Promise.resolve(undefined);

const copyOf = (row: Row | undefined): Row | undefined => (row ? { ...row } : undefined);

/** Predicates per statement: each brings one parameter per column, plus its index. */
const PER_QUERY = 500;

/**
 * Reads for the rules of one write, shared by all its objects: `get` and `find` calls made while
 * the objects' rules run side by side are gathered and sent on the next turn of the event loop,
 * as one `IN (...)` query per model for `get` and one VALUES join per model and column set for
 * `find`; each row and each predicate is read once per write. Nothing is written while the rules
 * run, so what was read stays true.
 */
export class RowBatcher {
  private readonly rows = new Map<string, Map<string, Read>>();
  private readonly found = new Map<string, Promise<Row[]>>();
  private pendingIds = new Map<string, Map<string, Waiter<Row | undefined>>>();
  private pendingFinds = new Map<string, FindGroup>();
  private scheduled = false;

  constructor(private readonly services: Services, private readonly exec: Exec) {}

  /**
   * The row of `modelId` with this id (a copy the caller may change), or undefined. A row already
   * read is answered with one settled promise (the rules of a bulk write ask for the same few
   * rows a thousand times: each further promise is paid for, async hooks being on).
   */
  get(modelId: string, id: unknown): Promise<Row | undefined> {
    if (typeof id !== 'string') return NOTHING;
    let cache = this.rows.get(modelId);
    if (!cache) this.rows.set(modelId, (cache = new Map()));
    let entry = cache.get(id);
    if (!entry) {
      const read: Read = { done: false, row: undefined, promise: NOTHING };
      read.promise = new Promise<Row | undefined>((resolve, reject) => this.enqueueId(modelId, id, { resolve, reject })).then((row) => {
        read.done = true;
        read.row = row;
        return row;
      });
      cache.set(id, (entry = read));
    }
    if (entry.done) return Promise.resolve(entry.row ? { ...entry.row } : undefined);
    return entry.promise.then(copyOf);
  }

  /** Rows matching column equalities (null matches IS NULL), read once per distinct predicate. */
  async find(modelId: string, where: Record<string, unknown>): Promise<Row[]> {
    const key = `${modelId} ${JSON.stringify(Object.entries(where).map(([c, v]) => [c, v === undefined ? { undefined: true } : v]))}`;
    let promise = this.found.get(key);
    if (!promise) {
      const cols = Object.keys(where).sort();
      const live = cols.filter((c) => where[c] !== null);
      // `undefined` compares as `= NULL` (matches nothing) in Store.where: left to it, as is a predicate without values.
      promise = live.length === 0 || live.some((c) => where[c] === undefined)
        ? this.services.store.where(this.exec, this.services.registry.get(modelId), where)
        : new Promise<Row[]>((resolve, reject) => this.enqueueFind(modelId, { live, nulls: cols.filter((c) => where[c] === null) }, live.map((c) => where[c]), { resolve, reject }));
      this.found.set(key, promise);
    }
    return (await promise).map((r) => ({ ...r }));
  }

  private enqueueId(modelId: string, id: string, waiter: Waiter<Row | undefined>): void {
    const ids = this.pendingIds.get(modelId) ?? new Map<string, Waiter<Row | undefined>>();
    ids.set(id, waiter);
    this.pendingIds.set(modelId, ids);
    this.schedule();
  }

  private enqueueFind(modelId: string, cols: { live: string[]; nulls: string[] }, values: unknown[], waiter: Waiter<Row[]>): void {
    const key = `${modelId}|${cols.live.join(',')}|${cols.nulls.join(',')}`;
    const group = this.pendingFinds.get(key) ?? { modelId, ...cols, asks: [] };
    group.asks.push({ values, waiter });
    this.pendingFinds.set(key, group);
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => void this.flush());
  }

  /** One query per model (ids) and per model and column set (predicates) asked for since the last flush. */
  private async flush(): Promise<void> {
    const [ids, finds] = [this.pendingIds, this.pendingFinds];
    this.pendingIds = new Map();
    this.pendingFinds = new Map();
    this.scheduled = false;
    for (const [modelId, waiters] of ids) await settle([...waiters.values()], () => this.loadIds(modelId, waiters));
    for (const group of finds.values()) await settle(group.asks.map((a) => a.waiter), () => this.loadFinds(group));
  }

  private async loadIds(modelId: string, waiters: Map<string, Waiter<Row | undefined>>): Promise<void> {
    const rows = await this.services.store.byIds(this.exec, this.services.registry.get(modelId), [...waiters.keys()]);
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const [id, waiter] of waiters) waiter.resolve(byId.get(id));
  }

  private async loadFinds(group: FindGroup): Promise<void> {
    const model = this.services.registry.get(group.modelId);
    const { store } = this.services;
    const results = group.asks.map(() => [] as Row[]);
    for (const [n, part] of chunk(group.asks, PER_QUERY).entries()) {
      const tuples = part.map((a) => a.values.map((v, j) => store.encodeColumn(model, group.live[j], v)));
      for (const { index, raw } of await matchTuples(this.exec, store, model, group, tuples, 'all')) results[n * PER_QUERY + index].push(store.decode(model, raw));
    }
    group.asks.forEach((a, i) => a.waiter.resolve(results[i]));
  }
}

/** Runs `load`; if it fails, every waiter gets the error. */
async function settle(waiters: Waiter<never>[], load: () => Promise<void>): Promise<void> {
  try {
    await load();
  } catch (err) {
    for (const waiter of waiters) waiter.reject(err);
  }
}
