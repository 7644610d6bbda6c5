import type { Exec } from '../../../db/store.js';
import type { Row } from '../../../core/registry/types.js';
import type { Services } from '../../../ops/services.js';

/**
 * Reads the rows a cable trace walks over (terminations, cables, statuses) inside one
 * transaction, each row once. Make a new one after changing cable columns.
 */
export class CableGraph {
  private readonly rows = new Map<string, Row | null>();

  constructor(readonly services: Services, readonly exec: Exec) {}

  /** The row of `type` with `id`, or undefined. */
  async get(type: string, id: unknown): Promise<Row | undefined> {
    if (typeof id !== 'string') return undefined;
    const key = `${type}:${id}`;
    if (!this.rows.has(key)) {
      const model = this.services.registry.find(type);
      this.rows.set(key, (model && (await this.services.store.byId(this.exec, model, id))) || null);
    }
    return this.rows.get(key) ?? undefined;
  }

  /** The first row of `type` matching column equalities, or undefined. */
  async find(type: string, where: Record<string, unknown>): Promise<Row | undefined> {
    return (await this.findAll(type, where))[0];
  }

  /** Every row of `type` matching column equalities (kept for later `get`s). */
  async findAll(type: string, where: Record<string, unknown>): Promise<Row[]> {
    const found = await this.services.store.where(this.exec, this.services.registry.get(type), where);
    for (const row of found) this.rows.set(`${type}:${row.id}`, row);
    return found;
  }

  /** Only cables whose status is Connected make a path active. */
  async isConnected(cable: Row): Promise<boolean> {
    const status = await this.get('extras.status', cable.status_id);
    return status?.name === 'Connected';
  }
}
