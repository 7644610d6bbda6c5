import { loadContentType } from './dynamic.js';
import { toSlice } from './relations.js';
import type { ResolvedField, ResolvedModel, Row } from '../../core/registry/types.js';
import type { GqlContext } from './context.js';
import type { ListArgs } from './relations.js';

/** The content types a to-many content-type field lists (a custom field's `content_types`), in the reference's content-type id order (store.links), sliced by limit/offset. */
export async function loadContentTypes(ctx: GqlContext, model: ResolvedModel, field: ResolvedField, row: Row, args: ListArgs): Promise<Row[]> {
  const { limit, offset } = toSlice(args);
  const run = async (ids: string[]) => ctx.services.store.links(ctx.services.dialect.db, model, field, ids);
  const labels = await ctx.batcher.load(`content-type links ${model.id}.${field.name}`, row.id, run, [] as string[]);
  const rows = (await Promise.all(labels.map((label) => loadContentType(ctx, label)))).filter((r): r is Row => !!r);
  return rows.slice(offset, limit === null ? undefined : offset + limit);
}
