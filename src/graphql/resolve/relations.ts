import { GraphQLError } from 'graphql';
import { sql } from 'kysely';
import { buildOrder } from '../../db/query/sort.js';
import { col } from '../../db/query/sql-helpers.js';
import { joinTable } from '../../db/schema/build-schema.js';
import { toParams } from '../schema/filter-args.js';
import { TRUE } from './context.js';
import { readByIds, readChildren } from './reads.js';
import type { ResolvedField, ResolvedModel, Row } from '../../core/registry/types.js';
import type { GqlContext } from './context.js';
import type { Link, Slice } from './reads.js';

/** Arguments of a list field: `limit`, `offset` and filters. */
export type ListArgs = Record<string, unknown> & { limit?: number | null; offset?: number | null };

/**
 * `limit`/`offset` as the reference slices a queryset (`qs[offset:][:limit]`, each only when
 * truthy); negative values are refused in Django's words.
 */
export function toSlice(args: ListArgs): { limit: number | null; offset: number } {
  const limit = args.limit ?? null;
  const offset = args.offset ?? 0;
  if ((limit !== null && limit < 0) || offset < 0) throw new GraphQLError('Negative indexing is not supported.');
  return { limit: limit ? limit : null, offset };
}

/** The batch of the related objects of `model` behind FK values (only `columns` when given). */
function objectBatch(ctx: GqlContext, model: ResolvedModel, columns: string[] | null) {
  return { name: `object ${model.id} ${columns?.join(',') ?? '*'}`, run: (ids: string[]) => readByIds(ctx, model, ids, TRUE, columns) };
}

/** The related object behind an FK value, whoever may list it (as a REST response nests it); only `columns` when given. */
export function loadObject(ctx: GqlContext, model: ResolvedModel, id: unknown, columns: string[] | null = null): Promise<Row | null> | null {
  if (id === null || id === undefined) return null;
  const { name, run } = objectBatch(ctx, model, columns);
  return ctx.batcher.load(name, String(id), run, null as Row | null).then((row) => {
    if (row) ctx.spend(1);
    return row;
  });
}

/** loadObject for the FK values of a whole level at once (null where there is none). */
export async function loadObjects(ctx: GqlContext, model: ResolvedModel, ids: unknown[], columns: string[] | null = null): Promise<(Row | null)[]> {
  const keys = ids.flatMap((id) => (id === null || id === undefined ? [] : [String(id)]));
  if (keys.length === 0) return ids.map(() => null);
  const { name, run } = objectBatch(ctx, model, columns);
  const found = await ctx.batcher.loadMany(name, keys, run, null as Row | null);
  let next = 0;
  const rows = ids.map((id) => (id === null || id === undefined ? null : found[next++]));
  ctx.spend(found.reduce((n, row) => (row ? n + 1 : n), 0));
  return rows;
}

/** The row of `owner` whose one-to-one `field` points at `parent` (a reverse one-to-one: `parent_bay`). */
export function loadOneToOne(ctx: GqlContext, owner: ResolvedModel, field: ResolvedField, parent: Row): Promise<Row | null> {
  const link = { parent: col(owner.table, field.column as string) };
  const run = async (parents: string[]) => {
    const found = await readChildren(ctx, { model: owner, link, parents, parentStorage: 'uuid', clause: TRUE, terms: [], slice: null, room: parents.length });
    return new Map([...found].map(([id, rows]) => [id, rows[0]]));
  };
  return ctx.batcher.load(`one-to-one ${owner.id}.${field.name}`, parent.id, run, null as Row | null).then((row) => {
    if (row) ctx.spend(1);
    return row;
  });
}

/** How the children of a to-many relation point at their parent. */
export type ToMany = {
  /** The model whose rows are listed. */
  child: ResolvedModel;
  /** The model of the parents (the list's owner in the schema). */
  parent: ResolvedModel;
  link: Link;
  /** A name for the batch (relation and direction). */
  name: string;
  /** The child's FK to the parent, for a reverse FK: terms of the order read through it are the same for a parent's children. */
  fk?: ResolvedField;
};

/** An FK of `child` seen from its target: its rows pointing at each parent. */
export function reverseFk(child: ResolvedModel, field: ResolvedField, parent: ResolvedModel): ToMany {
  return { child, parent, link: { parent: col(child.table, field.column as string) }, name: `reverse ${child.id}.${field.name}`, fk: field };
}

/** A many-to-many field read forwards (`interface.ip_addresses`) or backwards (`ip_address.interfaces` of `interface.ip_addresses`). */
export function manyToMany(owner: ResolvedModel, field: ResolvedField, target: ResolvedModel, forward: boolean): ToMany {
  const table = joinTable(owner, field);
  const child = forward ? target : owner;
  const [childSide, parentSide] = forward ? ['target_id', 'source_id'] : ['source_id', 'target_id'];
  const on = sql<boolean>`${sql.ref(`${table}.${childSide}`)} = ${col(child.table, 'id')}`;
  return { child, parent: forward ? owner : target, link: { parent: sql.ref(`${table}.${parentSide}`), join: { table, on } }, name: `${forward ? 'm2m' : 'm2m-reverse'} ${owner.id}.${field.name}` };
}

/** The batch of a to-many relation's children for these arguments (only `columns` when given). */
function toManyBatch(ctx: GqlContext, relation: ToMany, args: ListArgs, columns: string[] | null) {
  const slice: Slice = args.limit || args.offset ? toSlice(args) : null;
  const run = async (parents: string[]) => {
    const clause = await ctx.scope(relation.child, toParams(args));
    // Terms through the parent FK order nothing within one parent's children (and cost a look-up per row).
    const terms = buildOrder(ctx.services.registry, relation.child, undefined).filter((term) => !relation.fk || term.via?.field !== relation.fk);
    const storage = relation.parent.id_type === 'integer' ? 'integer' : 'uuid';
    // Per-parent slices leave the whole read's size open: it takes the room left.
    return ctx.withRoom(null, (room) => readChildren(ctx, { model: relation.child, link: relation.link, parents, parentStorage: storage, clause, terms, slice, room, columns }));
  };
  return { name: `${relation.name} ${JSON.stringify(args)} ${columns?.join(',') ?? '*'}`, run };
}

/**
 * The children of `parent` in a to-many relation, filtered by `args` and narrowed to what the
 * caller may list (as the REST list of the child model would), batched with its siblings: one
 * statement for the whole level.
 */
export function loadToMany(ctx: GqlContext, relation: ToMany, parent: Row, args: ListArgs, columns: string[] | null = null): Promise<Row[]> {
  const { name, run } = toManyBatch(ctx, relation, args, columns);
  return ctx.batcher.load(name, parent.id, run, [] as Row[]).then((rows) => {
    ctx.spend(rows.length);
    return rows;
  });
}

/** loadToMany for the parents of a whole level at once. */
export async function loadToManyOf(ctx: GqlContext, relation: ToMany, parents: Row[], args: ListArgs, columns: string[] | null = null): Promise<Row[][]> {
  const { name, run } = toManyBatch(ctx, relation, args, columns);
  const lists = await ctx.batcher.loadMany(name, parents.map((p) => p.id), run, [] as Row[]);
  ctx.spend(lists.reduce((n, rows) => n + rows.length, 0));
  return lists;
}
