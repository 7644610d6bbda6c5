import { addError, cleanPlans, rowsById } from './support.js';
import type { ResolvedModel } from '../../../core/registry/types.js';
import type { Exec } from '../../../db/store.js';
import type { AppExtensions, WriteHookContext } from '../../../ops/extensions.js';
import type { Services } from '../../../ops/services.js';

/** Models placed at one location (their `location` FK) whose type must list them in `content_types` (prefixes and VLANs: ipam/single-location.ts). */
export const LOCATED_MODELS = ['dcim.rackgroup', 'dcim.rack', 'dcim.device', 'dcim.module', 'dcim.powerpanel', 'dcim.controller', 'virtualization.cluster', 'ipam.vlangroup'];

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Content types (`app.model`) each location type permits, for the given location type ids. */
export async function permittedTypes(services: Services, exec: Exec, typeIds: string[]): Promise<Map<string, string[]>> {
  const model = services.registry.get('dcim.locationtype');
  return services.store.links(exec, model, model.fieldMap.get('content_types')!, typeIds);
}

/** The location's type must permit the model (checked for the whole batch with two queries). */
async function checkLocationPermits(ctx: WriteHookContext): Promise<void> {
  const { services, exec, model } = ctx;
  const plans = cleanPlans(ctx.plans).filter((p) => p.row.location_id);
  if (plans.length === 0) return;
  const locations = await rowsById(services, exec, 'dcim.location', plans.map((p) => p.row.location_id));
  const types = await rowsById(services, exec, 'dcim.locationtype', [...locations.values()].map((l) => l.location_type_id));
  const permitted = await permittedTypes(services, exec, [...types.keys()]);
  for (const plan of plans) {
    const typeId = String(locations.get(String(plan.row.location_id))?.location_type_id);
    if (permitted.get(typeId)?.includes(model.id)) continue;
    addError(plan, 'location', `${capitalise(model.verbose_name_plural)} may not associate to locations of type "${String(types.get(typeId)?.name ?? '')}".`);
  }
}

/** True when some object of `target` is assigned (by its `location` FK) to a location of the given type. */
async function usesLocationType(services: Services, exec: Exec, target: ResolvedModel, typeId: string): Promise<boolean> {
  const field = target.fieldMap.get('location');
  if (field?.kind !== 'fk' || field.to !== 'dcim.location') return false;
  const ofType = exec.selectFrom(services.registry.get('dcim.location').table).select('id').where('location_type_id', '=', typeId);
  return (await exec.selectFrom(target.table).select('id').where(field.column as string, 'in', ofType).limit(1).execute()).length > 0;
}

/** A content type cannot be removed from a location type while objects of that model sit at locations of the type. */
async function checkContentTypeRemoval(ctx: WriteHookContext): Promise<void> {
  const { services, exec } = ctx;
  const plans = cleanPlans(ctx.plans).filter((p) => p.before && p.links.has('content_types'));
  if (plans.length === 0) return;
  const stored = await permittedTypes(services, exec, plans.map((p) => p.row.id));
  for (const plan of plans) {
    const kept = new Set(plan.links.get('content_types'));
    for (const removed of (stored.get(plan.row.id) ?? []).filter((ct) => !kept.has(ct))) {
      const target = services.registry.find(removed);
      if (target && await usesLocationType(services, exec, target, plan.row.id)) {
        addError(plan, 'content_types', `Cannot remove "${removed}": ${target.verbose_name_plural} are assigned to locations of type ${String(plan.row.name)}.`);
      }
    }
  }
}

/** Location-type content types: which models may be placed at a location, checked on both sides. */
export const locationTypeExtensions: AppExtensions = {
  'dcim.locationtype': { parseInput: checkContentTypeRemoval },
  ...Object.fromEntries(LOCATED_MODELS.map((id) => [id, { parseInput: checkLocationPermits }])),
};
