import { deleteRows } from '../../../ops/write/delete.js';
import { deferFor, takeDeferred } from './deferred.js';
import { CABLE_TERMINATION_TYPES, PATH_ENDPOINT_TYPES, endsOf, isUncabledInterfaceType } from './endpoints.js';
import { recordEndChanges, writeEndChanges } from './end-changes.js';
import { CABLE_FILTERS, connectedFilter, hasCableFilter } from './filters.js';
import { originsEndingAt, originsThrough } from './path-lookup.js';
import { attachCables, detachCables } from './cable-ends.js';
import { CableGraph, settleAll } from './graph.js';
import { deletePathsFrom, retrace } from './paths.js';
import { rowsInIdOrder } from './sorted-rows.js';
import { checkRearPositionsInUse, onPassThroughPortsWritten } from './port-hooks.js';
import type { PathNode } from './endpoints.js';
import type { FilterDef } from '../../../ops/filters/filter-set.js';
import type { Row } from '../../../core/registry/types.js';
import type { AppExtensions, DeleteHookContext, ModelExtensions, WriteHookContext } from '../../../ops/extensions.js';

const cableNode = (cable: Row): PathNode => ({ type: 'dcim.cable', id: cable.id });

/**
 * New cables take their ends (cable, cable peer); new cables and cables whose status changed
 * retrace every path touching them, in the write's transaction. The ends of new cables are
 * change-logged as updated (only they are saved in the reference; far ends' paths are not).
 */
async function onCablesWritten({ services, exec, rc, plans }: WriteHookContext): Promise<void> {
  const created = plans.filter((p) => !p.before).map((p) => p.row);
  const restated = plans.filter((p) => p.before && p.before.status_id !== p.row.status_id).map((p) => p.row);
  if (created.length === 0 && restated.length === 0) return;
  await attachCables({ services, exec }, created);
  const ends = created.flatMap(endsOf);
  const through = await originsThrough({ services, exec }, [...ends, ...restated.map(cableNode)]);
  await retrace({ services, exec }, [...ends, ...through]);
  await recordEndChanges({ services, exec, rc }, ends);
}

/**
 * Cables about to go free their ends (change-logged as updated) and the paths over them are
 * traced again (ending where they now end).
 */
async function onCablesDeleting({ services, exec, rc, rows }: DeleteHookContext): Promise<void> {
  const through = await originsThrough({ services, exec }, rows.map(cableNode));
  await detachCables({ services, exec }, rows);
  await retrace({ services, exec }, [...rows.flatMap(endsOf), ...through]);
  await recordEndChanges({ services, exec, rc }, rows.flatMap(endsOf));
}

/**
 * A deleted termination takes its cable with it (as the reference), and its own path. The
 * paths over it are found now, while it is still cabled, and traced again once it is gone.
 */
async function onTerminationsDeleting({ services, exec, rc, model, rows }: DeleteHookContext): Promise<void> {
  const deferred = deferFor(rc);
  deferred.origins.push(...(await originsThrough({ services, exec }, rows.map((r): PathNode => ({ type: model.id, id: r.id })))));
  const cableModel = services.registry.get('dcim.cable');
  const cables = await rowsInIdOrder(services, exec, cableModel, rows.map((r) => r.cable_id));
  if (cables.length > 0) await deleteRows(services, exec, rc, cableModel, cables);
  await deletePathsFrom({ services, exec }, rows.map((r) => r.id));
}

/** Once the terminations are gone: the paths that ran over them end elsewhere, and the surviving cable ends are recorded. */
async function afterTerminationsDeleted({ services, exec, rc }: DeleteHookContext): Promise<void> {
  const deferred = takeDeferred(rc);
  if (!deferred) return;
  await retrace({ services, exec }, deferred.origins);
  await writeEndChanges({ services, exec, rc }, deferred.ends);
}

/** A new circuit termination extends the paths that ended at the circuit's other end. */
async function onCircuitTerminationsWritten({ services, exec, plans }: WriteHookContext): Promise<void> {
  const created = plans.filter((p) => !p.before).map((p) => p.row);
  if (created.length === 0) return;
  const type = 'circuits.circuittermination';
  const graph = new CableGraph(services, exec);
  const others = await settleAll(created.map((row) => graph.findAll(type, { circuit_id: row.circuit_id, term_side: row.term_side === 'A' ? 'Z' : 'A' })));
  const siblings = others.flat().map((o): PathNode => ({ type, id: o.id }));
  if (siblings.length > 0) await retrace({ services, exec }, await originsEndingAt({ services, exec }, siblings));
}

/** An interface with a cable cannot become virtual or wireless. */
async function checkCabledInterfaceType({ plans }: WriteHookContext): Promise<void> {
  for (const plan of plans) {
    if (plan.row.cable_id && isUncabledInterfaceType(plan.row.type) && !plan.errors.type) {
      plan.errors.type = [`An interface with a cable cannot be of type ${String(plan.row.type)} (virtual and wireless interfaces cannot be cabled).`];
    }
  }
}

/** Write hooks of single termination types. */
const OWN_HOOKS: Readonly<Record<string, ModelExtensions>> = {
  'dcim.interface': { parseInput: checkCabledInterfaceType },
  'circuits.circuittermination': { afterWrite: onCircuitTerminationsWritten },
  'dcim.frontport': { afterWrite: onPassThroughPortsWritten },
  'dcim.rearport': { parseInput: checkRearPositionsInUse, afterWrite: onPassThroughPortsWritten },
};

function terminationExtensions(type: string): ModelExtensions {
  const filters: Record<string, FilterDef> = { has_cable: hasCableFilter, ...(PATH_ENDPOINT_TYPES.includes(type) ? { connected: connectedFilter } : {}) };
  return { beforeDelete: onTerminationsDeleting, afterDelete: afterTerminationsDeleted, filters, ...OWN_HOOKS[type] };
}

/** Cable behaviour on the cable model and on every cable termination model. */
export const cableExtensions: AppExtensions = {
  'dcim.cable': { afterWrite: onCablesWritten, beforeDelete: onCablesDeleting, filters: CABLE_FILTERS },
  ...Object.fromEntries(CABLE_TERMINATION_TYPES.map((type) => [type, terminationExtensions(type)])),
};
