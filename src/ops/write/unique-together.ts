import { sql } from 'kysely';
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

function toTuples(services: Services, model: ResolvedModel, live: string[], plans: ItemPlan[]): Tuple[] {
  const byKey = new Map<string, Tuple>();
  for (const plan of plans) {
    const values = live.map((c) => services.store.encodeColumn(model, c, plan.row[c]));
    const key = JSON.stringify(values);
    const tuple = byKey.get(key) ?? { values, plans: [] };
    tuple.plans.push(plan);
    byKey.set(key, tuple);
  }
  return [...byKey.values()];
}

/**
 * Stored rows equal to some tuples on the `live` columns and null on the `nulls` ones: a join
 * with a VALUES list (exact matches through the unique-together index), `[row id, tuple index]`.
 */
async function matches(services: Services, exec: Exec, model: ResolvedModel, cols: { live: string[]; nulls: string[] }, tuples: Tuple[], offset: number): Promise<[string, number][]> {
  const nulls = cols.nulls.map((c) => sql`${sql.ref(`t.${c}`)} IS NULL`);
  if (cols.live.length === 0) {
    const rows = await sql<{ id: unknown }>`SELECT ${sql.ref('t.id')} AS id FROM ${sql.table(model.table)} AS t WHERE ${sql.join(nulls, sql` AND `)}`.execute(exec);
    return rows.rows.map((r) => [String(r.id), 0]);
  }
  const types = cols.live.map((c) => sql.raw(services.store.sqlType(model, c)));
  const list = tuples.map((t, i) => sql`(CAST(${offset + i} AS integer), ${sql.join(t.values.map((v, j) => sql`CAST(${v} AS ${types[j]})`))})`);
  const on = cols.live.map((c, j) => sql`${sql.ref(`t.${c}`)} = v.${sql.raw(`column${j + 2}`)}`);
  const where = nulls.length > 0 ? sql` WHERE ${sql.join(nulls, sql` AND `)}` : sql``;
  const rows = await sql<{ id: unknown; n: unknown }>`SELECT ${sql.ref('t.id')} AS id, v.column1 AS n FROM ${sql.table(model.table)} AS t JOIN (VALUES ${sql.join(list)}) AS v ON ${sql.join(on, sql` AND `)}${where}`.execute(exec);
  return rows.rows.map((r) => [String(r.id), Number(r.n)]);
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
      for (const [id, index] of await matches(services, exec, model, split, part, n * PER_QUERY)) {
        for (const plan of tuples[index].plans) if (plan.row.id !== id) out.add(plan);
      }
    }
  }
  return out;
}
