import { sql } from 'kysely';
import { toRequestContext } from '../api/request-context.js';
import { and, col, type Clause } from '../db/query/sql-helpers.js';
import { getRow, listRows, scopeClause } from '../ops/read.js';
import { serialize } from '../ops/serialize/index.js';
import type { FastifyRequest } from 'fastify';
import type { ResolvedModel } from '../core/registry/types.js';
import type { Reference } from '../core/registry/registry.js';
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

/** What to count: a model's objects matching list filters (`params`) and, when given, an extra clause. */
export type CountAsked = { model: ResolvedModel; params: Params; also?: Clause };

/**
 * How many objects each item asks for the user may view, in one statement (null for a model the
 * user may not view, or whose filters refuse the value): the global search's hits per model, a
 * detail page's reverse relations.
 */
export async function countEach(services: Services, req: FastifyRequest, asked: readonly CountAsked[]): Promise<(number | null)[]> {
  const db = services.dialect.db;
  const counted: { index: number; query: any }[] = [];
  for (const [index, item] of asked.entries()) {
    const where = await scopeClause(services, pageRequest(req, item.model, 'list'), item.model, item.params, 'view', db).catch((err: { status?: number }) => {
      if (err.status === 403 || err.status === 400) return null;
      throw err;
    });
    if (where !== null) counted.push({ index, query: db.selectFrom(item.model.table).select(sql<number>`count(*)`.as('n')).where(item.also ? and([where, item.also]) : where) });
  }
  const out: (number | null)[] = asked.map(() => null);
  if (counted.length === 0) return out;
  const row = await db.selectNoFrom(counted.map((c, k) => c.query.as(`n${k}`))).executeTakeFirst() as Record<string, unknown>;
  counted.forEach((c, k) => (out[c.index] = Number(row[`n${k}`] ?? 0)));
  return out;
}

/** How many objects of each referencing model point at `id` through its field (a device's interfaces, console ports, ...). */
export function countReferences(services: Services, req: FastifyRequest, refs: readonly Reference[], id: string): Promise<(number | null)[]> {
  return countEach(services, req, refs.map((ref) => ({ model: ref.model, params: new Map(), also: (eb) => eb(col(ref.model.table, ref.field.column as string), '=', id) })));
}

/**
 * Names the related objects of some columns of objects read at depth 0 (related objects as
 * `{id, object_type, url}`) with one read per related model: depth 1 renders every related
 * object whole, several times the cost for a page of interfaces.
 */
export async function nameRelated(services: Services, req: FastifyRequest, columns: string[], results: Shown[]): Promise<void> {
  const wanted = new Map<string, Set<string>>();
  const refs: Shown[] = [];
  for (const obj of results) for (const c of columns) for (const v of (Array.isArray(obj[c]) ? obj[c] : [obj[c]]) as unknown[]) {
    if (!v || typeof v !== 'object' || !('object_type' in v) || 'display' in v) continue;
    const ref = v as Shown;
    wanted.set(String(ref.object_type), (wanted.get(String(ref.object_type)) ?? new Set()).add(String(ref.id)));
    refs.push(ref);
  }
  const names = new Map<string, string>();
  for (const [type, ids] of wanted) {
    const target = services.registry.find(type);
    if (!target) continue;
    const found = await readList(services, pageRequest(req, target, 'list'), target, new Map([['id', [...ids]]]), { limit: ids.size, offset: 0, depth: 0 }).catch(() => ({ results: [] as Shown[] }));
    for (const r of found.results) names.set(`${type}:${String(r.id)}`, String(r.display));
  }
  for (const ref of refs) {
    const name = names.get(`${String(ref.object_type)}:${String(ref.id)}`);
    if (name !== undefined) ref.display = name;
  }
}
