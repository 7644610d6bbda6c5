import { toIsoMicro } from '../../core/fields/scalar.js';
import { loadForSerialization } from '../serialize/plan.js';
import { SnapshotSplitter } from '../../core/json-text.js';
import { writeSnapshotParts } from '../../db/schema/snapshot-parts.js';
import { newChangeId } from './change-id.js';
import { relatedObjects } from './change-related.js';
import { recordEvents } from './outbox.js';
import { snapshotWriter } from './snapshot-text.js';
import type { Exec } from '../../db/store.js';
import type { ResolvedModel, Row } from '../../core/registry/types.js';
import type { RequestContext, Services } from '../services.js';
import type { Loaded, SerializeOptions } from '../serialize/plan.js';

/** Change records encoded and written per statement. */
export const CHANGE_BATCH = 500;

export type ChangeAction = 'create' | 'update' | 'delete';

const flatColumns = new WeakMap<ResolvedModel, [string, string][]>();

/** The (name, column) pairs of the stored fields a flat snapshot holds, worked out once per model. */
function flatColumnsOf(model: ResolvedModel): [string, string][] {
  let pairs = flatColumns.get(model);
  if (!pairs) {
    pairs = model.columns.filter((field) => !(field.write_only || field.hidden || field.name === 'custom_fields' || field.name === 'id')).map((field) => [field.name, field.column as string]);
    flatColumns.set(model, pairs);
  }
  return pairs;
}

/** Flat snapshot: stored fields by name (FKs as ids), custom fields, tag names (`tags`: the snapshot's rendered tags). */
function flatData(model: ResolvedModel, row: Row, tags: unknown): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const [name, column] of flatColumnsOf(model)) data[name] = row[column] ?? null;
  if (model.fieldMap.has('custom_fields')) data.custom_fields = row._custom_field_data ?? {};
  if (Array.isArray(tags)) data.tags = (tags as { name?: string }[]).map((t) => t.name).sort();
  return data;
}

/**
 * Waits for the `previous` statement while `next` is under way. When `previous` fails, `next` is
 * let finish before the error goes on, so nothing of the write runs after its transaction is
 * rolled back.
 */
async function awaitPrevious(previous: Promise<void> | undefined, next: Promise<void>): Promise<void> {
  // `next` is awaited later; a failure before then is not an unhandled rejection.
  next.catch(() => undefined);
  if (!previous) return;
  try {
    await previous;
  } catch (err) {
    await next.catch(() => undefined);
    throw err;
  }
}

/**
 * Writes one change record per object in the write's transaction: who, when, which request,
 * and the object's state after the change (its last state for deletes), and its event in the
 * outbox (ops/write/outbox.ts). Returns what it loaded
 * to render the snapshots, and for which options (none for a model without a change log).
 */
export async function recordChanges(services: Services, exec: Exec, rc: RequestContext, model: ResolvedModel, action: ChangeAction, rows: Row[]): Promise<{ loaded: Loaded; opts: SerializeOptions } | undefined> {
  if (!model.features.has('change_logging') || rows.length === 0) return undefined;
  const changeModel = services.registry.get('extras.objectchange');
  // Depth 1, as the reference's serializer without a request: its URLs are paths without a scheme
  // and host; a created object's counts are left out (the reference serializes the saved
  // instance, which has no count annotations).
  const opts: SerializeOptions = { depth: 1, baseUrl: '', omitCounts: action === 'create' };
  const loaded = await loadForSerialization(services, exec, model, rows, opts);
  const related = await relatedObjects(services, exec, model, rows);
  // One writer for the whole write, so each related object is rendered and encoded once (not
  // once per row) and stored once (a part); each row's snapshot is written as text at once. Its
  // own display is the object's display at any depth.
  const splitter = new SnapshotSplitter();
  const write = snapshotWriter(services, loaded, model, opts, splitter);
  const time = toIsoMicro(new Date());
  // Encoded and written a batch at a time, each batch's texts dying young; the next batch is
  // encoded while the database writes the last one (PostgreSQL's driver is asynchronous).
  let writing: Promise<void> | undefined;
  const changeIds: string[] = [];
  for (let start = 0; start < rows.length; start += CHANGE_BATCH) {
    const records: Row[] = [];
    for (let i = start; i < Math.min(start + CHANGE_BATCH, rows.length); i += 1) {
      const v2 = write(rows[i]);
      const repr = String(v2.display ?? '').slice(0, 200);
      const flat = flatData(model, rows[i], v2.tags);
      records.push({
        id: newChangeId(),
        time,
        user_id: rc.actor?.id ?? null,
        user_name: rc.actor?.username ?? 'Undefined',
        request_id: rc.requestId,
        action,
        changed_object_type: model.id,
        changed_object_id: rows[i].id,
        change_context: rc.changeContext ?? 'web',
        change_context_detail: rc.routeName,
        related_object_type: related[i]?.type ?? null,
        related_object_id: related[i]?.id ?? null,
        object_repr: repr,
        object_data: flat,
        object_data_v2: v2.text,
        object_data_v2_parts: v2.parts,
      });
    }
    for (const record of records) changeIds.push(record.id as string);
    const next = services.store.insert(exec, changeModel, records);
    await awaitPrevious(writing, next);
    writing = next;
  }
  await writing;
  await writeSnapshotParts(services.store, exec, splitter.takeParts());
  await recordEvents(services, exec, changeIds);
  return { loaded, opts };
}
