import { toIsoMicro } from '../../../core/fields/scalar.js';
import { chunk } from '../../../db/store.js';
import { recordChanges } from '../../../ops/write/changelog.js';
import type { PathNode } from './endpoints.js';
import type { Exec } from '../../../db/store.js';
import type { RequestContext, Services } from '../../../ops/services.js';

type Ctx = { services: Services; exec: Exec; rc: RequestContext };

/** Ids among `ids` that already have a change record in this request (e.g. a delete record of a doomed termination). */
async function recordedIds({ services, exec, rc }: Ctx, ids: string[]): Promise<Set<string>> {
  const changes = services.registry.get('extras.objectchange');
  const out = new Set<string>();
  for (const part of chunk(ids)) {
    const rows = await exec.selectFrom(changes.table).select('changed_object_id').where('request_id', '=', rc.requestId).where('changed_object_id', 'in', part).execute();
    for (const r of rows) out.add(String(r.changed_object_id));
  }
  return out;
}

/**
 * The reference saves both terminations when a cable is created or deleted (their `cable` and
 * cable peer change), so each gets an update change record in the cable's request, with a new
 * `last_updated`. Call after the ends and their paths are written. Terminations this request has
 * already recorded (deleted with their device) keep their one record, as the reference merges them.
 */
export async function recordEndChanges(ctx: Ctx, ends: PathNode[]): Promise<void> {
  const seen = await recordedIds(ctx, ends.map((e) => e.id));
  const byType = new Map<string, Set<string>>();
  for (const end of ends) if (!seen.has(end.id)) byType.set(end.type, (byType.get(end.type) ?? new Set()).add(end.id));
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
