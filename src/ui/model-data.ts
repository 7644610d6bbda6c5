import { toRequestContext } from '../api/request-context.js';
import { getRow, listRows } from '../ops/read.js';
import { serialize } from '../ops/serialize/index.js';
import type { FastifyRequest } from 'fastify';
import type { ResolvedModel } from '../core/registry/types.js';
import type { Params } from '../ops/filters/apply.js';
import type { RequestContext, Services } from '../ops/services.js';

/** An object as the API renders it at depth 1 (related objects carry their display). */
export type Shown = Record<string, any>;

/** The operations' request context for a page (its route name goes to the change log). */
export function pageRequest(req: FastifyRequest, model: ResolvedModel, kind: string): RequestContext {
  return toRequestContext(req, `${model.app}:${model.model}_${kind}`);
}

/** One page of a model's objects, filtered as the API filters them, within the user's permissions. */
export async function readList(services: Services, rc: RequestContext, model: ResolvedModel, params: Params, page: { limit: number; offset: number; sort?: string; depth?: number }) {
  const { count, rows } = await listRows(services, rc, model, { params, limit: page.limit, offset: page.offset, sort: page.sort });
  const results = await serialize(services, services.dialect.db, model, rows, { depth: page.depth ?? 1, baseUrl: rc.baseUrl, excludeM2m: false }) as Shown[];
  return { count, results };
}

/** One object (by id or natural key), with its relationships and computed fields. */
export async function readOne(services: Services, rc: RequestContext, model: ResolvedModel, key: string): Promise<Shown> {
  const row = await getRow(services, rc, model, key, new Map(), 'view', services.dialect.db);
  const [shown] = await serialize(services, services.dialect.db, model, [row], { depth: 1, baseUrl: rc.baseUrl, include: new Set(['relationships', 'computed_fields']) });
  return shown as Shown;
}
