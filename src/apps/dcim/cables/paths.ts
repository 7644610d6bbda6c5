import { randomUUID } from 'node:crypto';
import { ValidationError } from '../../../core/errors.js';
import { chunk } from '../../../db/store.js';
import { PATH_ENDPOINT_TYPES, endsOf, toNodeText } from './endpoints.js';
import { CableGraph } from './graph.js';
import { traceFrom } from './trace.js';
import type { PathNode } from './endpoints.js';
import type { Trace } from './trace.js';
import type { Exec } from '../../../db/store.js';
import type { Row } from '../../../core/registry/types.js';
import type { Services } from '../../../ops/services.js';

type Ctx = { services: Services; exec: Exec };

/** The origin's connected_endpoint columns for a trace (all null without a path). */
function endpointColumns(trace: Trace | null): Record<string, unknown> {
  return {
    connected_endpoint_type: trace?.destination?.type ?? null,
    connected_endpoint_id: trace?.destination?.id ?? null,
    connected_endpoint_reachable: trace ? trace.is_active : null,
  };
}

/** Stores (or removes) the cable path of one origin and copies its end onto the origin row. */
async function savePath({ services, exec }: Ctx, origin: PathNode, trace: Trace | null): Promise<void> {
  const model = services.registry.get('dcim.cablepath');
  const existing = (await services.store.where(exec, model, { origin_type: origin.type, origin_id: origin.id }))[0];
  if (!trace) {
    if (existing) await services.store.deleteIds(exec, model, [existing.id]);
  } else {
    const values = {
      origin_type: origin.type, origin_id: origin.id,
      destination_type: trace.destination?.type ?? null, destination_id: trace.destination?.id ?? null,
      path: trace.nodes.map(toNodeText), is_active: trace.is_active, is_split: trace.is_split,
    };
    if (existing) await services.store.update(exec, model, existing.id, values);
    else await services.store.insert(exec, model, [{ id: randomUUID(), ...values }]);
  }
  const originModel = services.registry.find(origin.type);
  if (originModel) await services.store.update(exec, originModel, origin.id, endpointColumns(trace));
}

/** Traces each path endpoint among `origins` again and stores the result, in the caller's transaction. */
export async function retrace(ctx: Ctx, origins: PathNode[]): Promise<void> {
  const graph = new CableGraph(ctx.services, ctx.exec);
  const unique = new Map(origins.filter((o) => PATH_ENDPOINT_TYPES.includes(o.type)).map((o) => [toNodeText(o), o]));
  for (const origin of unique.values()) {
    if (!(await graph.get(origin.type, origin.id))) continue;
    await savePath(ctx, origin, await traceFrom(graph, origin));
  }
}

/** Removes the stored paths that start at deleted terminations. */
export async function deletePathsFrom({ services, exec }: Ctx, originIds: string[]): Promise<void> {
  const model = services.registry.get('dcim.cablepath');
  for (const part of chunk(originIds)) await exec.deleteFrom(model.table).where('origin_id', 'in', part).execute();
}

/** Sets one end of a new cable; refuses (400) an end that already carries another cable. */
async function attachEnd({ services, exec }: Ctx, cable: Row, side: 'a' | 'b', peer: PathNode): Promise<unknown> {
  const end = endsOf(cable)[side === 'a' ? 0 : 1];
  const model = services.registry.get(end.type);
  const values = services.store.encode(model, { cable_id: cable.id, cable_peer_type: peer.type, cable_peer_id: peer.id });
  const result = await exec.updateTable(model.table).set(values).where('id', '=', end.id)
    .where((eb) => eb.or([eb('cable_id', 'is', null), eb('cable_id', '=', cable.id)])).executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw new ValidationError({ [`termination_${side}`]: ['This termination already has a cable attached.'] });
  return (await services.store.byId(exec, model, end.id))?.device_id ?? null;
}

/** Points both ends of new cables at the cable and at each other, and records each end's device. */
export async function attachCables(ctx: Ctx, cables: Row[]): Promise<void> {
  const cableModel = ctx.services.registry.get('dcim.cable');
  for (const cable of cables) {
    const [a, b] = endsOf(cable);
    const deviceA = await attachEnd(ctx, cable, 'a', b);
    const deviceB = await attachEnd(ctx, cable, 'b', a);
    await ctx.services.store.update(ctx.exec, cableModel, cable.id, { termination_a_device_id: deviceA, termination_b_device_id: deviceB });
  }
}

/** Clears the cable and cable peer of both ends of cables about to go. */
export async function detachCables({ services, exec }: Ctx, cables: Row[]): Promise<void> {
  for (const cable of cables) {
    for (const end of endsOf(cable)) {
      const model = services.registry.find(end.type);
      if (!model) continue;
      const values = services.store.encode(model, { cable_id: null, cable_peer_type: null, cable_peer_id: null });
      await exec.updateTable(model.table).set(values).where('id', '=', end.id).where('cable_id', '=', cable.id).execute();
    }
  }
}
