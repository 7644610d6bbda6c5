import { toIsoMicro } from '../../../core/fields/scalar.js';
import { chunk } from '../../../db/store.js';
import { recordChanges } from '../../../ops/write/changelog.js';
import { pendingFor } from './deferred.js';
import { rowsInIdOrder } from './sorted-rows.js';
import type { PathNode } from './endpoints.js';
import type { Exec } from '../../../db/store.js';
import type { RequestContext, Services } from '../../../ops/services.js';

type Ctx = { services: Services; exec: Exec; rc: RequestContext };

/** Writes an update record (and a new `last_updated`) for each end that still exists. */
export async function writeEndChanges(ctx: Ctx, ends: PathNode[]): Promise<void> {
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
    const rows = await rowsInIdOrder(ctx.services, ctx.exec, model, [...ids]);
    await recordChanges(ctx.services, ctx.exec, ctx.rc, model, 'update', rows);
  }
}

/**
 * The reference saves both terminations when a cable is created or deleted (their `cable` and
 * cable peer change), so each gets an update record in the cable's request. Call after the ends
 * and their paths are written; while terminations are being deleted the records wait (deferred.ts).
 */
export async function recordEndChanges(ctx: Ctx, ends: PathNode[]): Promise<void> {
  const waiting = pendingFor(ctx.rc);
  if (waiting) waiting.ends.push(...ends);
  else await writeEndChanges(ctx, ends);
}
