import type { Exec } from '../../db/store.js';
import type { ResolvedField, ResolvedModel, Row } from '../../core/registry/types.js';
import type { Services } from '../services.js';

type RelatedRef = { type: string; id: string } | null;

/** Nesting levels a `change_related` via path is followed before giving up (a cycle guard). */
const MAX_VIA_DEPTH = 32;

/** The related object named by the first of the rule's fields set on the row, if any. */
function relatedByColumns(rule: NonNullable<ResolvedModel['change_related']>, row: Row): RelatedRef {
  for (const field of rule.fields) {
    const id = field.kind === 'generic_fk' ? row[`${field.name}_id`] : row[field.column as string];
    const type = field.kind === 'generic_fk' ? row[`${field.name}_type`] : field.to;
    if (id !== null && id !== undefined && type) return { type: String(type), id: String(id) };
  }
  return null;
}

/**
 * Each row's related object (model `change_related`, reference `to_objectchange`): its own
 * columns, else, for rows with a via path set, the related object of the row that path reaches,
 * read a level at a time for all such rows at once (no per-row queries).
 */
export async function relatedObjects(services: Services, exec: Exec, model: ResolvedModel, rows: Row[], depth = 0): Promise<RelatedRef[]> {
  const rule = model.change_related;
  if (!rule) return rows.map(() => null);
  const out = rows.map((row) => relatedByColumns(rule, row));
  if (rule.via.length === 0 || depth >= MAX_VIA_DEPTH) return out;
  // Follow the path for the rows still without one: the id reached at each step, by row index.
  const column = (m: ResolvedModel, name: string) => (m.fieldMap.get(name) as ResolvedField).column as string;
  let reach = new Map<number, string>();
  rows.forEach((row, i) => {
    const id = row[column(model, rule.via[0])];
    if (out[i] === null && id !== null && id !== undefined) reach.set(i, String(id));
  });
  let at: ResolvedModel = model;
  for (let step = 0; step < rule.via.length; step++) {
    if (reach.size === 0) return out;
    const target = services.registry.get((at.fieldMap.get(rule.via[step]) as ResolvedField).to as string);
    const nextName = rule.via[step + 1];
    if (nextName !== undefined) {
      const found = new Map((await services.store.byIds(exec, target, [...new Set(reach.values())])).map((r) => [String(r.id), r]));
      const next = new Map<number, string>();
      for (const [i, id] of reach) {
        const nextId = found.get(id)?.[column(target, nextName)];
        if (nextId !== null && nextId !== undefined) next.set(i, String(nextId));
      }
      reach = next;
    }
    at = target;
  }
  // `reach` now maps rows to rows of this model: their related objects are these rows'.
  const ends = [...new Set(reach.values())];
  const endRows = await services.store.byIds(exec, model, ends);
  const endRefs = await relatedObjects(services, exec, model, endRows, depth + 1);
  const byEnd = new Map(endRows.map((r, n) => [String(r.id), endRefs[n]]));
  for (const [i, id] of reach) out[i] = byEnd.get(id) ?? null;
  return out;
}
