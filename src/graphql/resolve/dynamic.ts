import { extensionsFor } from '../../ops/extensions.js';
import { sql } from 'kysely';
import { inList, readByIds } from './reads.js';
import { FALSE } from './context.js';
import type { ResolvedModel, Row } from '../../core/registry/types.js';
import type { RelationshipDef } from '../schema/dynamic-defs.js';
import type { GqlContext } from './context.js';

/**
 * A value an app computes at read time for rows of `model` (`config_context`, `computed_fields`,
 * IPAM's `address`), by the same loader the REST serializer runs, once for every row of the
 * level that asks for it.
 */
export function loadComputed(ctx: GqlContext, model: ResolvedModel, name: string, row: Row): Promise<unknown> {
  const run = async (rows: Row[]) => {
    const loader = extensionsFor(ctx.services, model).map((ext) => ext.computed?.[name]).find((l) => l !== undefined);
    if (!loader) return new Map<Row, unknown>();
    const opts = { depth: 0, baseUrl: ctx.rc.baseUrl, include: new Set([name]) };
    const values = await loader({ services: ctx.services, exec: ctx.services.dialect.db, model, rows, opts });
    return new Map(rows.map((r) => [r, values.get(r.id)]));
  };
  return ctx.batcher.load(`computed ${model.id}.${name}`, row, run, undefined as unknown);
}

/** A content type (`dcim.interface`) as the ContentType object the reference nests; one read of the table per query. */
export function loadContentType(ctx: GqlContext, label: unknown): Promise<Row | null> | null {
  if (typeof label !== 'string' || label === '') return null;
  const model = ctx.services.registry.get('contenttypes.contenttype');
  const run = async (labels: string[]) => {
    const rows = await ctx.services.dialect.db.selectFrom(model.table).selectAll().execute();
    const byLabel = new Map(rows.map((r) => ctx.services.store.decode(model, r)).map((r) => [`${String(r.app_label)}.${String(r.model)}`, r]));
    return new Map(labels.map((l) => [l, byLabel.get(l) ?? null]));
  };
  return ctx.batcher.load('content types', label, run, null as Row | null).then((row) => {
    if (row) ctx.spend(1);
    return row;
  });
}

/** The related object of a generic relation (`cable_peer`, `connected_endpoint`): its `<name>_type` and `<name>_id` columns. */
export function loadGeneric(ctx: GqlContext, row: Row, name: string): Promise<Row | null> | null {
  const target = ctx.services.registry.find(String(row[`${name}_type`] ?? ''));
  const id = row[`${name}_id`];
  if (!target || typeof id !== 'string') return null;
  return ctx.batcher.load(`object ${target.id}`, id, (ids) => readByIds(ctx, target, ids), null as Row | null).then((found) => {
    if (found) {
      ctx.spend(1);
      ctx.generic.set(found, target);
    }
    return found;
  });
}

/** The generic relation's object when it is of `model`, else null (the reference's `cable_peer_<model>` fields). */
export async function loadGenericAs(ctx: GqlContext, row: Row, name: string, model: ResolvedModel): Promise<Row | null> {
  if (String(row[`${name}_type`] ?? '') !== model.id) return null;
  return loadGeneric(ctx, row, name);
}

/** Which association column holds this side's ids and which the peer's. */
const COLUMNS = { source: ['source_id', 'destination_id'], destination: ['destination_id', 'source_id'] } as const;

/**
 * The peers of `row` through a relationship (`rel_<key>`), from the side `side` (both sides for a
 * symmetric one), that the caller may list: one statement for the associations of the level and
 * one for the peers.
 */
export function loadRelationshipPeers(ctx: GqlContext, rel: RelationshipDef, side: 'source' | 'destination', peer: ResolvedModel, row: Row): Promise<Row[]> {
  const symmetric = rel.type.startsWith('symmetric');
  const run = async (ids: string[]) => {
    const assoc = ctx.services.registry.get('extras.relationshipassociation');
    const sides = symmetric ? [COLUMNS.source, COLUMNS.destination] : [COLUMNS[side]];
    const rows = await ctx.services.dialect.db.selectFrom(assoc.table).select(['source_id', 'destination_id'])
      .where('relationship_id', '=', rel.id)
      .where((eb) => eb.or(sides.map(([own]) => inList(ctx, sql.ref(own), ids, 'uuid'))))
      .orderBy('id').execute();
    const wanted = new Set(ids);
    const peersOf = new Map<string, string[]>();
    for (const r of rows) {
      for (const [own, other] of sides) {
        const self = String(r[own]);
        if (wanted.has(self)) peersOf.set(self, [...(peersOf.get(self) ?? []), String(r[other])]);
      }
    }
    const clause = await ctx.scope(peer);
    const visible = clause === FALSE ? new Map<string, Row>() : await readByIds(ctx, peer, [...peersOf.values()].flat(), clause);
    return new Map([...peersOf].map(([id, peers]) => [id, peers.flatMap((p) => (visible.has(p) ? [visible.get(p) as Row] : []))]));
  };
  return ctx.batcher.load(`relationship ${rel.id} ${side}`, row.id, run, [] as Row[]).then((rows) => {
    ctx.spend(rows.length);
    return rows;
  });
}
