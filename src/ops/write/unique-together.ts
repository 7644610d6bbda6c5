import { chunk } from '../../db/store.js';
import type { Exec } from '../../db/store.js';
import type { ResolvedModel, Row } from '../../core/registry/types.js';
import type { Services } from '../services.js';
import type { ItemPlan } from './build-item.js';

/** Objects per query: each brings at most one value per column into the IN lists. */
const PER_QUERY = 500;

const isNull = (value: unknown) => value === null || value === undefined;

/** One stored or in-memory value as the database compares it (text, numbers and booleans alike). */
function comparable(value: unknown): string | null {
  if (isNull(value)) return null;
  if (value instanceof Uint8Array) return `x${Buffer.from(value).toString('hex')}`;
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Key of a set of column values; the same for an object and a stored row holding equal values. */
export function tupleKey(values: unknown[]): string {
  return JSON.stringify(values.map(comparable));
}

/** Ids of stored rows holding the given tuples of one null pattern (a superset filtered by key). */
async function storedOwners(services: Services, exec: Exec, model: ResolvedModel, cols: string[], rows: Row[]): Promise<Map<string, string[]>> {
  const owners = new Map<string, string[]>();
  for (const part of chunk(rows, PER_QUERY)) {
    let query = exec.selectFrom(model.table).select(['id', ...cols]);
    for (const c of cols) {
      const values = [...new Set(part.map((r) => services.store.encodeColumn(model, c, r[c])))];
      query = isNull(part[0][c]) ? query.where(c, 'is', null) : query.where(c, 'in', values);
    }
    for (const raw of await query.execute()) {
      const key = tupleKey(cols.map((c) => raw[c]));
      const ids = owners.get(key) ?? [];
      ids.push(String(raw.id));
      owners.set(key, ids);
    }
  }
  return owners;
}

/**
 * For one unique-together set: which plans collide with a stored row other than themselves.
 * One query per null pattern (and per 500 objects) for the whole batch, instead of one per object.
 */
export async function collidingPlans(services: Services, exec: Exec, model: ResolvedModel, cols: string[], plans: ItemPlan[]): Promise<Set<ItemPlan>> {
  const groups = new Map<string, ItemPlan[]>();
  for (const plan of plans) {
    const pattern = cols.map((c) => (isNull(plan.row[c]) ? '0' : '1')).join('');
    const group = groups.get(pattern) ?? [];
    group.push(plan);
    groups.set(pattern, group);
  }
  const out = new Set<ItemPlan>();
  for (const group of groups.values()) {
    const encoded = group.map((p) => Object.fromEntries(cols.map((c) => [c, p.row[c]])) as Row);
    const owners = await storedOwners(services, exec, model, cols, encoded);
    for (const plan of group) {
      const ids = owners.get(tupleKey(cols.map((c) => services.store.encodeColumn(model, c, plan.row[c]))));
      if (ids?.some((id) => id !== plan.row.id)) out.add(plan);
    }
  }
  return out;
}
