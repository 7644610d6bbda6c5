import { isDeepStrictEqual } from 'node:util';
import { extensionsFor } from '../../ops/extensions.js';
import { toContentTypeKey } from '../../db/content-types.js';
import type { Row } from '../../core/registry/types.js';
import type { Exec } from '../../db/store.js';
import type { Services } from '../../ops/services.js';

/** What a webhook renders: the reference's `process_webhook` context, keys in its order. */
export type WebhookContext = {
  event: string;
  timestamp: string;
  model: string;
  username: string;
  request_id: string;
  data: unknown;
  snapshots: { prechange: unknown; postchange: unknown; differences: { removed: unknown; added: unknown } };
};

const EVENTS: Record<string, string> = { create: 'created', update: 'updated', delete: 'deleted' };

/** Change records with their object_data_v2 made whole (the change model's computed loader). */
async function wholeSnapshots(services: Services, exec: Exec, rows: Row[]): Promise<Map<string, unknown>> {
  const model = services.registry.get('extras.objectchange');
  const loader = extensionsFor(services, model).map((ext) => ext.computed?.object_data_v2).find(Boolean);
  if (!loader) return new Map(rows.map((r) => [r.id as string, r.object_data_v2]));
  return loader({ services, exec, model, rows, opts: { depth: 1, baseUrl: '' } });
}

/** The change of the same object just before `change` (by time, as the reference's get_prev_change), if any. */
async function priorChange(services: Services, exec: Exec, change: Row): Promise<Row | undefined> {
  const model = services.registry.get('extras.objectchange');
  const column = (name: string) => model.fieldMap.get(name)!.column as string;
  const time = services.store.encodeColumn(model, column('time'), change[column('time')]);
  // Two writes in the same microsecond: the id (UUIDv7, time-ordered) breaks the tie.
  const raw = await exec.selectFrom(model.table).selectAll()
    .where(column('changed_object_type'), '=', change[column('changed_object_type')])
    .where(column('changed_object_id'), '=', change[column('changed_object_id')])
    .where((eb) => eb.or([eb(column('time'), '<', time), eb.and([eb(column('time'), '=', time), eb('id', '<', change.id)])]))
    .orderBy(column('time'), 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
  return raw ? services.store.decode(model, raw) : undefined;
}

/** Keys of `after` whose values differ from `before`'s, with `after`'s values (the reference's shallow_compare_dict). */
function shallowDifferences(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(after)) if (key !== 'last_updated' && !isDeepStrictEqual(before[key] ?? null, value)) out[key] = value;
  return out;
}

/** The reference's ObjectChange.get_snapshots(). */
function snapshots(action: string, own: unknown, prior: unknown): WebhookContext['snapshots'] {
  const prechange = action === 'create' ? null : (prior ?? (action === 'delete' ? own : null));
  const postchange = action === 'delete' ? null : own;
  if (prechange && postchange) {
    const pre = prechange as Record<string, unknown>;
    const added = shallowDifferences(pre, postchange as Record<string, unknown>);
    const removed = Object.fromEntries(Object.keys(added).map((key) => [key, pre[key] ?? null]));
    return { prechange, postchange, differences: { removed, added } };
  }
  if (prechange && !postchange) return { prechange, postchange, differences: { removed: prechange, added: null } };
  return { prechange, postchange, differences: { removed: null, added: postchange } };
}

/** The context of change record `changeId` (undefined when it is gone), stamped `timestamp`. */
export async function webhookContext(services: Services, exec: Exec, changeId: string, timestamp: string): Promise<WebhookContext | undefined> {
  const model = services.registry.get('extras.objectchange');
  const change = await services.store.byId(exec, model, changeId);
  if (!change) return undefined;
  const prior = change.action === 'create' ? undefined : await priorChange(services, exec, change);
  const whole = await wholeSnapshots(services, exec, prior ? [change, prior] : [change]);
  const typeColumn = model.fieldMap.get('changed_object_type')!.column as string;
  const own = whole.get(change.id as string) ?? null;
  return {
    event: EVENTS[String(change.action)] ?? String(change.action),
    timestamp,
    model: toContentTypeKey(String(change[typeColumn])).model,
    username: String(change.user_name ?? ''),
    request_id: String(change.request_id ?? ''),
    data: own,
    snapshots: snapshots(String(change.action), own, prior ? whole.get(prior.id as string) ?? null : null),
  };
}
