/**
 * The spec's single `location` of prefixes (and VLANs) next to the reference's `locations`
 * list (api-behaviour.md section 0). Writing `location` replaces the location assignments
 * with that one location; the stored `location_id` follows the assignments (kept while still
 * assigned, else the first one, else null).
 */
import { randomUUID } from 'node:crypto';
import { joinTable } from '../../db/schema/build-schema.js';
import { syncThroughLinks } from '../shared/through-links.js';
import type { Exec } from '../../db/store.js';
import type { ModelExtensions, WriteHookContext } from '../../ops/extensions.js';
import type { Services } from '../../ops/services.js';
import type { AfterSync, ThroughLink } from '../shared/through-links.js';

/** Where an owner model keeps its locations: the assignment model and the mirrored link. */
export type LocationSpec = { through: string; link: ThroughLink; noun: string };

async function allowedTypes(services: Services, exec: Exec, locationIds: string[], modelId: string): Promise<Map<string, string | null>> {
  const locations = services.registry.get('dcim.location');
  const types = services.registry.get('dcim.locationtype');
  const out = new Map<string, string | null>();
  if (locationIds.length === 0) return out;
  const rows = await exec.selectFrom(`${locations.table} as l`).innerJoin(`${types.table} as t`, 't.id', 'l.location_type_id')
    .leftJoin(`${joinTable(types, types.fieldMap.get('content_types')!)} as c`, (j) => j.onRef('c.source_id', '=', 't.id').on('c.content_type', '=', modelId))
    .select(['l.id as id', 't.name as type', 'c.content_type as allowed']).where('l.id', 'in', locationIds).execute();
  for (const r of rows) out.set(String(r.id), r.allowed ? null : String(r.type));
  return out;
}

async function checkLocationTypes(ctx: WriteHookContext, spec: LocationSpec): Promise<void> {
  const given = ctx.plans.filter((p) => 'location' in p.input && typeof p.row.location_id === 'string');
  const refused = await allowedTypes(ctx.services, ctx.exec, given.map((p) => String(p.row.location_id)), ctx.model.id);
  for (const plan of given) {
    const type = refused.get(String(plan.row.location_id));
    if (type) (plan.errors.location ??= []).push(`${spec.noun} may not associate to locations of type "${type}".`);
  }
}

async function replaceAssignments(ctx: WriteHookContext, spec: LocationSpec): Promise<void> {
  const through = ctx.services.registry.get(spec.through);
  const ownerCol = through.fieldMap.get(spec.link.ownerFk)?.column as string;
  const targetCol = through.fieldMap.get(spec.link.targetFk)?.column as string;
  const given = ctx.plans.filter((p) => 'location' in p.input);
  if (given.length === 0) return;
  await ctx.exec.deleteFrom(through.table).where(ownerCol, 'in', given.map((p) => p.row.id)).execute();
  const rows = given.filter((p) => p.row.location_id).map((p) => ({ id: randomUUID(), [ownerCol]: p.row.id, [targetCol]: p.row.location_id }));
  if (rows.length > 0) await ctx.exec.insertInto(through.table).values(rows).execute();
  await syncThroughLinks(ctx.services, ctx.exec, spec.through, spec.link, given.map((p) => p.row.id));
}

/** AfterSync of the assignment model: the owner's `location_id` follows its assignments. */
export function followAssignments(spec: LocationSpec): AfterSync {
  return async ({ services, exec, link, links }) => {
    if (link !== spec.link || links.size === 0) return;
    const owner = services.registry.get(spec.link.owner);
    const rows = await exec.selectFrom(owner.table).select(['id', 'location_id']).where('id', 'in', [...links.keys()]).execute();
    for (const r of rows) {
      const targets = links.get(String(r.id)) ?? [];
      const next = targets.includes(String(r.location_id)) ? r.location_id : targets[0] ?? null;
      if (next !== r.location_id) await exec.updateTable(owner.table).set({ location_id: next }).where('id', '=', r.id).execute();
    }
  };
}

/** Owner-model extensions: check the location's type, then replace the assignments. */
export function singleLocation(spec: LocationSpec): ModelExtensions {
  return {
    parseInput: (ctx) => checkLocationTypes(ctx, spec),
    afterWrite: (ctx) => replaceAssignments(ctx, spec),
  };
}
