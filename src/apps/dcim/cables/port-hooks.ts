import { CableGraph, settleAll } from './graph.js';
import { originsThrough } from './path-lookup.js';
import { retrace } from './paths.js';
import type { PathNode } from './endpoints.js';
import type { Row } from '../../../core/registry/types.js';
import type { WriteHookContext } from '../../../ops/extensions.js';
import type { ItemPlan } from '../../../ops/write/build-item.js';

/** Columns of a pass-through port whose change reroutes the paths over it. */
const ROUTING_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  'dcim.frontport': ['rear_port_id', 'rear_port_position'],
  'dcim.rearport': ['positions'],
};

type Candidates = { own: PathNode[]; rears: unknown[]; left: unknown[] };

/**
 * Where a written port may reroute stored paths: over the front port itself when it existed
 * (paths reaching it), over the rear port it maps to (paths arriving on that rear port's cable),
 * and from the rear port it left (where paths over it may start). A new front port carries no
 * path yet; a rear port's size matters only past its cable.
 */
function candidates(type: string, { row, before }: ItemPlan): Candidates {
  const columns = ROUTING_COLUMNS[type] ?? [];
  if (before && !columns.some((c) => row[c] !== before[c])) return { own: [], rears: [], left: [] };
  if (type === 'dcim.rearport') return { own: [], rears: [row.id], left: [] };
  return { own: before ? [{ type, id: row.id }] : [], rears: [row.rear_port_id], left: [before?.rear_port_id] };
}

const rearNode = (row: Row): PathNode => ({ type: 'dcim.rearport', id: row.id });

/**
 * A front port moved to another rear port or position, a new front port, or a rear port with a
 * new number of positions: every stored path over them is traced again (with the endpoints'
 * connected_endpoint), in the write's transaction. Not change-logged: the reference writes
 * paths without saving the endpoints.
 */
export async function onPassThroughPortsWritten({ services, exec, model, plans }: WriteHookContext): Promise<void> {
  const found = plans.map((plan) => candidates(model.id, plan));
  const rearModel = services.registry.get('dcim.rearport');
  const rears = (await services.store.byIds(exec, rearModel, found.flatMap((c) => c.rears))).filter((r) => r.cable_id);
  const nodes = [...found.flatMap((c) => c.own), ...rears.map(rearNode)];
  if (nodes.length === 0) return;
  const left = found.flatMap((c) => c.left).filter((id): id is string => typeof id === 'string').map((id) => ({ type: 'dcim.rearport', id }));
  await retrace({ services, exec }, await originsThrough({ services, exec }, nodes, left));
}

/**
 * A rear port cannot shrink below a position a front port is mapped to. When fewer positions
 * than mapped front ports are asked for, the reference's count rule answers instead.
 */
export async function checkRearPositionsInUse({ services, exec, plans }: WriteHookContext): Promise<void> {
  const shrinking = plans.filter(({ row, before, errors }) => before && !errors.positions && Number(row.positions) < Number(before.positions));
  if (shrinking.length === 0) return;
  // The front ports of all of them in one query.
  const graph = new CableGraph(services, exec);
  const fronts = await settleAll(shrinking.map(({ row }) => graph.findAll('dcim.frontport', { rear_port_id: row.id })));
  for (const [i, { row, errors }] of shrinking.entries()) {
    const positions = Number(row.positions);
    const mapped = fronts[i];
    const beyond = mapped.filter((f) => Number(f.rear_port_position) > positions);
    if (beyond.length === 0 || mapped.length > positions) continue;
    const taken = beyond.map((f) => Number(f.rear_port_position)).sort((a, b) => a - b);
    errors.positions = [`Cannot reduce the positions to ${positions}: front ports are mapped to position ${taken.join(', ')}.`];
  }
}
