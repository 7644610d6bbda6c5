import { randomUUID } from 'node:crypto';
import { toIsoMicro } from '../../core/fields/scalar.js';
import { chunk } from '../../db/store.js';
import { loadForSerialization } from '../serialize/plan.js';
import { renderRows } from '../serialize/render.js';
import type { Exec } from '../../db/store.js';
import type { ResolvedField, ResolvedModel, Row } from '../../core/registry/types.js';
import type { RequestContext, Services } from '../services.js';

/** Change records rendered and written per statement. */
const CHANGE_BATCH = 100;

export type ChangeAction = 'create' | 'update' | 'delete';

/** Flat snapshot: stored fields by name (FKs as ids), custom fields, tag names. */
function flatData(model: ResolvedModel, row: Row, api: Record<string, unknown>): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const field of model.columns) {
    if (field.write_only || field.hidden || field.name === 'custom_fields') continue;
    data[field.name] = row[field.column as string] ?? null;
  }
  if (model.fieldMap.has('custom_fields')) data.custom_fields = row._custom_field_data ?? {};
  if (Array.isArray(api.tags)) data.tags = (api.tags as { name?: string }[]).map((t) => t.name).sort();
  return data;
}

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
async function relatedObjects(services: Services, exec: Exec, model: ResolvedModel, rows: Row[], depth = 0): Promise<RelatedRef[]> {
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

/**
 * Writes one change record per object in the write's transaction: who, when, which request,
 * and the object's state after the change (its last state for deletes).
 */
export async function recordChanges(services: Services, exec: Exec, rc: RequestContext, model: ResolvedModel, action: ChangeAction, rows: Row[]): Promise<void> {
  if (!model.features.has('change_logging') || rows.length === 0) return;
  const changeModel = services.registry.get('extras.objectchange');
  // Depth 1, as the reference's serializer without a request; a created object's counts are left out
  // (the reference serializes the saved instance, which has no count annotations).
  const opts = { depth: 1, baseUrl: rc.baseUrl, omitCounts: action === 'create' };
  const loaded = await loadForSerialization(services, exec, model, rows, opts);
  const related = await relatedObjects(services, exec, model, rows);
  const time = toIsoMicro(new Date());
  // Rendered, encoded and written a batch at a time: each batch's snapshots and texts die young.
  for (const [n, part] of chunk(rows, CHANGE_BATCH).entries()) {
    // The snapshot's own display is the object's display at any depth: no second rendering for it.
    const snapshots = renderRows(services, loaded, model, part, opts);
    const records = part.map((row, i) => ({
      id: randomUUID(),
      time,
      user_id: rc.actor?.id ?? null,
      user_name: rc.actor?.username ?? 'Undefined',
      request_id: rc.requestId,
      action,
      changed_object_type: model.id,
      changed_object_id: row.id,
      change_context: 'web',
      change_context_detail: rc.routeName,
      related_object_type: related[n * CHANGE_BATCH + i]?.type ?? null,
      related_object_id: related[n * CHANGE_BATCH + i]?.id ?? null,
      object_repr: String(snapshots[i].display ?? '').slice(0, 200),
      object_data: flatData(model, row, snapshots[i]),
      object_data_v2: snapshots[i],
    }));
    await services.store.insert(exec, changeModel, records as Row[]);
  }
}
