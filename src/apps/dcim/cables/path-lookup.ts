import { sql } from 'kysely';
import { chunk } from '../../../db/store.js';
import { or } from '../../../db/query/sql-helpers.js';
import { endpointsAround } from './components.js';
import { fromNodeText } from './endpoints.js';
import { CableGraph } from './graph.js';
import { byText } from './sorted-rows.js';
import type { PathNode } from './endpoints.js';
import type { Exec } from '../../../db/store.js';
import type { Row } from '../../../core/registry/types.js';
import type { Services } from '../../../ops/services.js';

type Ctx = { services: Services; exec: Exec };

/** Stored paths whose node list names any of `ids`, by scanning every path (the fallback for huge cabling). */
async function scanPaths({ services, exec }: Ctx, ids: string[]): Promise<Row[]> {
  const model = services.registry.get('dcim.cablepath');
  const out = new Map<string, Row>();
  for (const part of chunk([...new Set(ids)], 100)) {
    const clause = or(part.map((id) => () => services.dialect.ilike(sql.ref('path'), `%${id}%`) as never));
    for (const raw of await exec.selectFrom(model.table).selectAll().where(clause).execute()) {
      const row = services.store.decode(model, raw);
      out.set(row.id, row);
    }
  }
  return [...out.values()];
}

/** Stored paths ending at any of `ids`, by their destination column (the fallback for huge cabling). */
async function scanEndingAt({ services, exec }: Ctx, ids: string[]): Promise<Row[]> {
  const model = services.registry.get('dcim.cablepath');
  const out: Row[] = [];
  for (const part of chunk(ids)) {
    const raw = await exec.selectFrom(model.table).selectAll().where('destination_id', 'in', part).execute();
    out.push(...raw.map((r) => services.store.decode(model, r)));
  }
  return out;
}

/**
 * The stored paths starting at `origins` (through the (origin_type, origin_id) unique index),
 * per origin type and, within a type, by origin id: the order SQLite's index gives, kept on
 * PostgreSQL too, whose order would follow where updates left the rows.
 */
export async function pathsFrom({ services, exec }: Ctx, origins: PathNode[]): Promise<Row[]> {
  const model = services.registry.get('dcim.cablepath');
  const byType = new Map<string, string[]>();
  for (const o of origins) {
    const ids = byType.get(o.type) ?? [];
    ids.push(o.id);
    byType.set(o.type, ids);
  }
  const out: Row[] = [];
  for (const [type, ids] of byType) {
    for (const part of chunk(ids)) {
      const raw = await exec.selectFrom(model.table).selectAll().where('origin_type', '=', type).where('origin_id', 'in', part).execute();
      out.push(...raw.map((r) => services.store.decode(model, r)).sort(byText('origin_id')));
    }
  }
  return out;
}

/** Stored paths that may involve `nodes`: those of the endpoints cabled to them (or, past the walk's limit, every path naming them). */
async function candidatePaths(ctx: Ctx, nodes: PathNode[], alsoFrom: PathNode[]): Promise<Row[] | null> {
  const origins = await endpointsAround(new CableGraph(ctx.services, ctx.exec), [...nodes, ...alsoFrom]);
  return origins ? pathsFrom(ctx, origins) : null;
}

/**
 * Stored cable paths whose node list names any of `nodes` (cables, ports, circuit terminations).
 * `alsoFrom`: more places the paths may start from (e.g. the rear port a front port just left).
 */
export async function pathsThrough(ctx: Ctx, nodes: PathNode[], alsoFrom: PathNode[] = []): Promise<Row[]> {
  const ids = new Set(nodes.map((n) => n.id));
  const candidates = (await candidatePaths(ctx, nodes, alsoFrom)) ?? (await scanPaths(ctx, [...ids]));
  return candidates.filter((p) => Array.isArray(p.path) && p.path.some((text) => ids.has(fromNodeText(String(text)).id)));
}

/** Origins of the stored paths running through any of `nodes`. */
export async function originsThrough(ctx: Ctx, nodes: PathNode[], alsoFrom: PathNode[] = []): Promise<PathNode[]> {
  return (await pathsThrough(ctx, nodes, alsoFrom)).map((p) => ({ type: String(p.origin_type), id: String(p.origin_id) }));
}

/** Origins of the stored paths ending at any of `nodes`. */
export async function originsEndingAt(ctx: Ctx, nodes: PathNode[]): Promise<PathNode[]> {
  const ids = new Set(nodes.map((n) => n.id));
  const candidates = (await candidatePaths(ctx, nodes, [])) ?? (await scanEndingAt(ctx, [...ids]));
  return candidates.filter((p) => ids.has(String(p.destination_id))).map((p) => ({ type: String(p.origin_type), id: String(p.origin_id) }));
}
