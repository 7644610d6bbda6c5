import { PATH_ENDPOINT_TYPES, endsOf, toNodeText } from './endpoints.js';
import { settleAll } from './graph.js';
import type { CableGraph } from './graph.js';
import type { PathNode } from './endpoints.js';
import type { Row } from '../../../core/registry/types.js';

/** Where a path may go on from a node of each type besides its own cable, in either direction. */
const LINKS: Readonly<Record<string, (graph: CableGraph, row: Row) => Promise<PathNode[]>>> = {
  'dcim.cable': async (_graph, row) => endsOf(row),
  'dcim.frontport': async (_graph, row) => (typeof row.rear_port_id === 'string' ? [{ type: 'dcim.rearport', id: row.rear_port_id }] : []),
  'dcim.rearport': async (graph, row) => (await graph.findAll('dcim.frontport', { rear_port_id: row.id })).map((f) => ({ type: 'dcim.frontport', id: f.id })),
  'circuits.circuittermination': async (graph, row) => (await graph.findAll('circuits.circuittermination', { circuit_id: row.circuit_id }))
    .filter((other) => other.id !== row.id).map((other) => ({ type: 'circuits.circuittermination', id: other.id })),
};

/**
 * Beyond this many objects, or NODES_PER_SEED for each seed when that is more (a bulk write's own
 * cables must not send it to the scan), the walk gives up and the caller scans the stored paths.
 */
const MAX_NODES = 5000;
const NODES_PER_SEED = 16;

/** The objects one step away from `node`: its cable and its LINKS. */
async function neighbours(graph: CableGraph, node: PathNode): Promise<PathNode[]> {
  const row = await graph.get(node.type, node.id);
  if (!row) return [];
  const cable: PathNode[] = node.type !== 'dcim.cable' && typeof row.cable_id === 'string' ? [{ type: 'dcim.cable', id: row.cable_id }] : [];
  return [...cable, ...(await (LINKS[node.type]?.(graph, row) ?? []))];
}

/**
 * Reads, a level at a time, every object the walk from `seeds` reaches, each level's reads
 * together (CableGraph rounds): costs grow with the depth of the cabling, not its size. False
 * when more than `limit` objects are reachable.
 */
async function loadAround(graph: CableGraph, seeds: PathNode[], limit: number): Promise<boolean> {
  const seen = new Set<string>();
  let level = seeds;
  while (level.length > 0) {
    const fresh = level.filter((node) => {
      const key = toNodeText(node);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    if (seen.size > limit) return false;
    level = (await settleAll(fresh.map((node) => neighbours(graph, node)))).flat();
  }
  return true;
}

/**
 * The path endpoints connected to `seeds` over cables, front/rear port pairs and circuits: every
 * origin whose cable path can run through a seed (a path only follows those links). Costs grow
 * with the cabling around the seeds, not with the number of stored paths; null when the
 * connected cabling is larger than the limit. The rows are read level by level first, then
 * walked depth first from the last seed, which gives the endpoints in a stable order.
 */
export async function endpointsAround(graph: CableGraph, seeds: PathNode[]): Promise<PathNode[] | null> {
  const limit = Math.max(MAX_NODES, NODES_PER_SEED * seeds.length);
  if (!(await loadAround(graph, seeds, limit))) return null;
  const seen = new Map<string, PathNode>();
  const queue = [...seeds];
  while (queue.length > 0) {
    const node = queue.pop() as PathNode;
    const key = toNodeText(node);
    if (seen.has(key)) continue;
    seen.set(key, node);
    queue.push(...(await neighbours(graph, node)));
  }
  return [...seen.values()].filter((n) => PATH_ENDPOINT_TYPES.includes(n.type));
}
