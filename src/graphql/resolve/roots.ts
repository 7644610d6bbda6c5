import { GraphQLError } from 'graphql';
import { toRowId } from '../../core/registry/row-id.js';
import { readPage } from '../../db/query/page.js';
import { buildOrder } from '../../db/query/sort.js';
import { toParams } from '../schema/filter-args.js';
import { FALSE } from './context.js';
import { readByIds } from './reads.js';
import { toSlice } from './relations.js';
import type { ResolvedModel, Row } from '../../core/registry/types.js';
import type { GqlContext } from './context.js';
import type { ListArgs } from './relations.js';

/**
 * A top-level list (`devices(...)`): the REST list's rows for these filters in the model's
 * order, sliced by `offset` and `limit`, as many as the node budget allows; read as the REST
 * list reads its page (db/query/page.ts), only the `columns` the selection shows when given.
 */
export async function listRoot(ctx: GqlContext, model: ResolvedModel, args: ListArgs, columns: string[] | null = null): Promise<Row[]> {
  const { limit, offset } = toSlice(args);
  const where = await ctx.scope(model, toParams(args));
  if (where === FALSE) return [];
  const terms = buildOrder(ctx.services.registry, model, undefined);
  const page = await ctx.withRoom(limit, (cap) => readPage({ exec: ctx.services.dialect.db, model, where, terms, limit: cap, offset, shape: `${model.id}||${columns?.join(',') ?? '*'}`, counted: false, rowCount: ctx.services.dialect.rowCountSql, ...(columns ? { columns } : {}) }));
  const rows = page.rows.map((r) => ctx.services.store.decode(model, r));
  ctx.spend(rows.length);
  return rows;
}

/**
 * A single object by id (`device(id: ...)`), if the caller may list it; null without an id. A
 * value that is no id of the model is an error in the words of the model's id field.
 */
export async function getRoot(ctx: GqlContext, model: ResolvedModel, id: unknown): Promise<Row | null> {
  if (id === null || id === undefined || id === '') return null;
  const key = toRowId(model, id);
  if (!key) throw new GraphQLError(`['${model.id_type === 'integer' ? `Field 'id' expected a number but got '${String(id)}'.` : `“${String(id)}” is not a valid UUID.`}']`);
  const run = async (ids: string[]) => readByIds(ctx, model, ids, await ctx.scope(model));
  const row = await ctx.batcher.load(`root ${model.id}`, key, run, null as Row | null);
  if (row) ctx.spend(1);
  return row;
}
