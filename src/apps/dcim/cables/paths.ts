import { randomUUID } from 'node:crypto';
import { chunk } from '../../../db/store.js';
import { PATH_ENDPOINT_TYPES, toNodeText } from './endpoints.js';
import { CableGraph, settleAll } from './graph.js';
import { pathsFrom } from './path-lookup.js';
import { traceFrom } from './trace.js';
import type { PathNode } from './endpoints.js';
import type { Trace } from './trace.js';
import type { Exec } from '../../../db/store.js';
import type { Row } from '../../../core/registry/types.js';
import type { Services } from '../../../ops/services.js';

type Ctx = { services: Services; exec: Exec };

/** An origin and its new trace (null: it has no cable, so no path). */
type Traced = { origin: PathNode; trace: Trace | null };

/** The origin's connected_endpoint columns for a trace (all null without a path). */
function endpointColumns(trace: Trace | null): Record<string, unknown> {
  return {
    connected_endpoint_type: trace?.destination?.type ?? null,
    connected_endpoint_id: trace?.destination?.id ?? null,
    connected_endpoint_reachable: trace ? trace.is_active : null,
  };
}

function pathColumns({ origin, trace }: { origin: PathNode; trace: Trace }): Record<string, unknown> {
  return {
    origin_type: origin.type, origin_id: origin.id,
    destination_type: trace.destination?.type ?? null, destination_id: trace.destination?.id ?? null,
    path: trace.nodes.map(toNodeText), is_active: trace.is_active, is_split: trace.is_split,
  };
}

/**
 * Stores (or removes) the cable paths of the traced origins and copies their ends onto the
 * origin rows: the stored paths read in one query per origin type, then one statement each for
 * the removed, changed and new paths (new ones numbered in the origins' order).
 */
async function savePaths({ services, exec }: Ctx, traced: Traced[]): Promise<void> {
  const model = services.registry.get('dcim.cablepath');
  const stored = new Map((await pathsFrom({ services, exec }, traced.map((t) => t.origin))).map((p) => [`${String(p.origin_type)}:${String(p.origin_id)}`, p]));
  const removed: string[] = [];
  const changed: { id: string; values: Record<string, unknown> }[] = [];
  const added: Row[] = [];
  for (const { origin, trace } of traced) {
    const existing = stored.get(toNodeText(origin));
    if (!trace) {
      if (existing) removed.push(existing.id);
    } else if (existing) changed.push({ id: existing.id, values: pathColumns({ origin, trace }) });
    else added.push({ id: randomUUID(), ...pathColumns({ origin, trace }) });
  }
  await services.store.deleteIds(exec, model, removed);
  await services.store.updateMany(exec, model, changed);
  await services.store.insert(exec, model, added);
  await saveEndpoints({ services, exec }, traced);
}

/** Copies each trace's end onto its origin row: one statement per origin type. */
async function saveEndpoints({ services, exec }: Ctx, traced: Traced[]): Promise<void> {
  const byType = new Map<string, { id: string; values: Record<string, unknown> }[]>();
  for (const { origin, trace } of traced) {
    const changes = byType.get(origin.type) ?? [];
    changes.push({ id: origin.id, values: endpointColumns(trace) });
    byType.set(origin.type, changes);
  }
  for (const [type, changes] of byType) {
    const model = services.registry.find(type);
    if (model) await services.store.updateMany(exec, model, changes);
  }
}

/**
 * Traces each path endpoint among `origins` again and stores the result, in the caller's
 * transaction. The traces run side by side over one CableGraph, so each step of all of them
 * costs one round of reads: statements grow with the longest path, not with the origins.
 */
export async function retrace(ctx: Ctx, origins: PathNode[]): Promise<void> {
  const graph = new CableGraph(ctx.services, ctx.exec);
  const unique = [...new Map(origins.filter((o) => PATH_ENDPOINT_TYPES.includes(o.type)).map((o) => [toNodeText(o), o])).values()];
  const rows = await settleAll(unique.map((o) => graph.get(o.type, o.id)));
  const present = unique.filter((_, i) => rows[i]);
  if (present.length === 0) return;
  const traces = await settleAll(present.map((origin) => traceFrom(graph, origin)));
  await savePaths(ctx, present.map((origin, i) => ({ origin, trace: traces[i] })));
}

/** Removes the stored paths that start at deleted terminations. */
export async function deletePathsFrom({ services, exec }: Ctx, originIds: string[]): Promise<void> {
  const model = services.registry.get('dcim.cablepath');
  for (const part of chunk(originIds)) await exec.deleteFrom(model.table).where('origin_id', 'in', part).execute();
}
