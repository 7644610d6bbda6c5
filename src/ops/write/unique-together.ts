import { matchTuples } from '../../db/match-tuples.js';
import { chunk } from '../../db/store.js';
import type { Exec } from '../../db/store.js';
import type { ResolvedModel } from '../../core/registry/types.js';
import type { Services } from '../services.js';
import type { ItemPlan } from './build-item.js';

/** Distinct value tuples per query (each brings one parameter per column, plus its index). */
const PER_QUERY = 500;

const isNull = (value: unknown) => value === null || value === undefined;

/** Plans sharing one tuple of encoded values for the non-null columns. */
type Tuple = { values: unknown[]; plans: ItemPlan[] };

/**
 * A text equal for equal encoded tuples only. Buffers (packed IP addresses) go as hex: as JSON a
 * Buffer is an array of its bytes as numbers, several times longer and slower to write.
 */
function tupleKey(values: unknown[]): string {
  return JSON.stringify(values.map((value) => (Buffer.isBuffer(value) ? { buffer: value.toString('hex') } : value)));
}

function toTuples(services: Services, model: ResolvedModel, live: string[], plans: ItemPlan[]): Tuple[] {
  const byKey = new Map<string, Tuple>();
  for (const plan of plans) {
    const values = live.map((c) => services.store.encodeColumn(model, c, plan.row[c]));
    const key = tupleKey(values);
    const tuple = byKey.get(key) ?? { values, plans: [] };
    tuple.plans.push(plan);
    byKey.set(key, tuple);
  }
  return [...byKey.values()];
}

/**
 * For one unique-together set: the plans whose values a stored row other than themselves holds.
 * One query per null pattern (and per 500 distinct tuples) for the whole batch.
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
    const split = { live: cols.filter((c) => !isNull(group[0].row[c])), nulls: cols.filter((c) => isNull(group[0].row[c])) };
    const tuples = toTuples(services, model, split.live, group);
    for (const [n, part] of chunk(tuples, PER_QUERY).entries()) {
      for (const { index, raw } of await matchTuples(exec, services.store, model, split, part.map((t) => t.values), 'id')) {
        for (const plan of tuples[n * PER_QUERY + index].plans) if (plan.row.id !== String(raw.id)) out.add(plan);
      }
    }
  }
  return out;
}
