import { toIsoMicro } from '../../../core/fields/scalar.js';
import { chunk } from '../../../db/store.js';
import { recordChanges } from '../../../ops/write/changelog.js';
import type { PathNode } from './endpoints.js';
import type { Exec } from '../../../db/store.js';
import type { RequestContext, Services } from '../../../ops/services.js';

type Ctx = { services: Services; exec: Exec; rc: RequestContext };

/**
 * Ends of cables removed while a request deletes terminations (a device and its components):
 * recorded once those terminations are gone, so an end deleted in the same request keeps its
 * one delete record (the reference merges a request's changes of one object into one record).
 * Request-scoped: keyed by the request's context object, never shared between requests.
 */
const deferred = new WeakMap<RequestContext, PathNode[]>();

/** Writes an update record (and a new `last_updated`) for each end that still exists. */
async function writeEndChanges(ctx: Ctx, ends: PathNode[]): Promise<void> {
  const byType = new Map<string, Set<string>>();
  for (const end of ends) byType.set(end.type, (byType.get(end.type) ?? new Set()).add(end.id));
  const now = toIsoMicro(new Date());
  for (const [type, ids] of byType) {
    const model = ctx.services.registry.find(type);
    if (!model) continue;
    if (model.fieldMap.get('last_updated')?.column) {
      const values = ctx.services.store.encode(model, { last_updated: now });
      for (const part of chunk([...ids])) await ctx.exec.updateTable(model.table).set(values).where('id', 'in', part).execute();
    }
    const rows = await ctx.services.store.byIds(ctx.exec, model, [...ids]);
    await recordChanges(ctx.services, ctx.exec, ctx.rc, model, 'update', rows);
  }
}

/**
 * The reference saves both terminations when a cable is created or deleted (their `cable` and
 * cable peer change), so each gets an update record in the cable's request. Call after the ends
 * and their paths are written; while terminations are being deleted the records wait for
 * `flushEndChanges`.
 */
export async function recordEndChanges(ctx: Ctx, ends: PathNode[]): Promise<void> {
  const queue = deferred.get(ctx.rc);
  if (queue) queue.push(...ends);
  else await writeEndChanges(ctx, ends);
}

/** Called before a request deletes cable terminations (and with them their cables). */
export function deferEndChanges(rc: RequestContext): void {
  if (!deferred.has(rc)) deferred.set(rc, []);
}

/** Called after the terminations are deleted: records the surviving ends of their cables. */
export async function flushEndChanges(ctx: Ctx): Promise<void> {
  const queue = deferred.get(ctx.rc);
  if (!queue) return;
  deferred.delete(ctx.rc);
  await writeEndChanges(ctx, queue);
}
