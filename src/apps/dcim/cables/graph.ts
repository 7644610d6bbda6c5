import { chunk } from '../../../db/store.js';
import type { Exec } from '../../../db/store.js';
import type { Row } from '../../../core/registry/types.js';
import type { Services } from '../../../ops/services.js';

/**
 * Every promise's value once all are settled, the first failure thrown: work run side by side
 * over a CableGraph ends before its caller goes on (no read outlives the transaction).
 */
export async function settleAll<T>(promises: Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(promises);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<T>).value);
}

type Waiter<T> = { resolve: (value: T) => void; reject: (err: unknown) => void };

/** `a` equals `b` as a stored column compares with a parameter (null only with null). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === null || a === undefined || b === null || b === undefined) return (a ?? null) === (b ?? null);
  return String(a) === String(b);
}

/**
 * Reads the rows cable traces and walks go over (terminations, cables, statuses) inside one
 * transaction, each row once. Reads asked for while other work waits (many traces or a walk's
 * whole frontier, run side by side) are gathered and sent together on the next turn of the
 * event loop: one `IN (...)` query per model for rows by id, one per model and column for rows
 * by a column (front ports of rear ports, terminations of circuits). A round's answers are
 * handed out once all of them are read, so the next round again gathers everybody's next read.
 * Make a new one after changing cable columns.
 */
export class CableGraph {
  private readonly rows = new Map<string, Promise<Row | undefined>>();
  private readonly children = new Map<string, Promise<Row[]>>();
  private pendingIds = new Map<string, Map<string, Waiter<Row | undefined>>>();
  private pendingChildren = new Map<string, Map<string, Waiter<Row[]>>>();
  private scheduled = false;

  constructor(readonly services: Services, readonly exec: Exec) {}

  /** The row of `type` with `id`, or undefined. */
  get(type: string, id: unknown): Promise<Row | undefined> {
    if (typeof id !== 'string') return Promise.resolve(undefined);
    const key = `${type}:${id}`;
    let found = this.rows.get(key);
    if (!found) {
      found = new Promise<Row | undefined>((resolve, reject) => {
        const waiting = this.pendingIds.get(type) ?? new Map<string, Waiter<Row | undefined>>();
        waiting.set(id, { resolve, reject });
        this.pendingIds.set(type, waiting);
        this.schedule();
      });
      this.rows.set(key, found);
    }
    return found;
  }

  /** The first row of `type` matching column equalities, or undefined. */
  async find(type: string, where: Record<string, unknown>): Promise<Row | undefined> {
    return (await this.findAll(type, where))[0];
  }

  /**
   * Every row of `type` matching column equalities (kept for later `get`s): the rows sharing the
   * first column's value are read (and kept) together, the other columns compared here.
   */
  async findAll(type: string, where: Record<string, unknown>): Promise<Row[]> {
    const [column, ...rest] = Object.keys(where);
    const value = where[column];
    if (column === undefined || (typeof value !== 'string' && typeof value !== 'number')) {
      return this.services.store.where(this.exec, this.services.registry.get(type), where);
    }
    const rows = await this.childrenOf(type, column, String(value));
    return rows.filter((row) => rest.every((c) => sameValue(row[c], where[c])));
  }

  /** Only cables whose status is Connected make a path active. */
  async isConnected(cable: Row): Promise<boolean> {
    const status = await this.get('extras.status', cable.status_id);
    return status?.name === 'Connected';
  }

  private childrenOf(type: string, column: string, value: string): Promise<Row[]> {
    const key = `${type}|${column}|${value}`;
    let found = this.children.get(key);
    if (!found) {
      found = new Promise<Row[]>((resolve, reject) => {
        const group = `${type}|${column}`;
        const waiting = this.pendingChildren.get(group) ?? new Map<string, Waiter<Row[]>>();
        waiting.set(value, { resolve, reject });
        this.pendingChildren.set(group, waiting);
        this.schedule();
      });
      this.children.set(key, found);
    }
    return found;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => void this.flush());
  }

  /** Reads everything asked for since the last round, then answers every waiter (or fails them all). */
  private async flush(): Promise<void> {
    const [ids, children] = [this.pendingIds, this.pendingChildren];
    this.pendingIds = new Map();
    this.pendingChildren = new Map();
    this.scheduled = false;
    const answers: (() => void)[] = [];
    try {
      for (const [type, waiting] of ids) answers.push(...(await this.loadIds(type, waiting)));
      for (const [group, waiting] of children) answers.push(...(await this.loadChildren(group, waiting)));
    } catch (err) {
      for (const waiting of [...ids.values(), ...children.values()]) for (const waiter of waiting.values()) waiter.reject(err);
      return;
    }
    for (const answer of answers) answer();
  }

  private async loadIds(type: string, waiting: Map<string, Waiter<Row | undefined>>): Promise<(() => void)[]> {
    const model = this.services.registry.find(type);
    const rows = model ? await this.services.store.byIds(this.exec, model, [...waiting.keys()]) : [];
    const byId = new Map(rows.map((r) => [r.id, r]));
    return [...waiting].map(([id, waiter]) => () => waiter.resolve(byId.get(id)));
  }

  private async loadChildren(group: string, waiting: Map<string, Waiter<Row[]>>): Promise<(() => void)[]> {
    const [type, column] = group.split('|');
    const model = this.services.registry.get(type);
    const byValue = new Map<string, Row[]>();
    for (const part of chunk([...waiting.keys()])) {
      const values = part.map((v) => this.services.store.encodeColumn(model, column, v));
      for (const raw of await this.exec.selectFrom(model.table).selectAll().where(column, 'in', values).execute()) {
        const row = this.services.store.decode(model, raw);
        const key = String(row[column]);
        byValue.set(key, [...(byValue.get(key) ?? []), row]);
        if (!this.rows.has(`${type}:${row.id}`)) this.rows.set(`${type}:${row.id}`, Promise.resolve(row));
      }
    }
    return [...waiting].map(([value, waiter]) => () => waiter.resolve(byValue.get(value) ?? []));
  }
}
