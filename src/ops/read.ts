import { sql } from 'kysely';
import { NotFoundError } from '../core/errors.js';
import { toRowId } from '../core/registry/row-id.js';
import { fromCompositeKey } from '../core/natural-key.js';
import { buildOrder } from '../db/query/sort.js';
import { readPage } from '../db/query/page.js';
import { TRUE, and } from '../db/query/sql-helpers.js';
import { buildWhere } from './filters/apply.js';
import { extensionsFor } from './extensions.js';
import { constraintClause, requirePermission } from './permissions.js';
import { serialize } from './serialize/index.js';
import { resolveNaturalKey } from './references/natural-key-lookup.js';
import type { Clause } from '../db/query/sql-helpers.js';
import type { Exec } from '../db/store.js';
import type { ResolvedModel, Row } from '../core/registry/types.js';
import type { Params } from './filters/apply.js';
import type { SerializeOptions } from './serialize/index.js';
import type { Action } from './permissions.js';
import type { RequestContext, Services } from './services.js';

export type ListQuery = { params: Params; limit: number | null; offset: number; sort?: string };

/** Filters, permission constraints and app scopes (ModelExtensions.scope), as one clause. */
export async function scopeClause(services: Services, rc: RequestContext, model: ResolvedModel, params: Params, action: Action, exec: Exec): Promise<Clause> {
  if (rc.actor) requirePermission(services, rc.actor, action, model);
  const where = await buildWhere({ services, exec, model, actor: rc.actor }, params);
  const constraint = rc.actor ? constraintClause(services, rc.actor, action, model) : null;
  const scopes = extensionsFor(services, model).map((ext) => ext.scope?.({ services, rc, model }) ?? null);
  const extra = [constraint, ...scopes].filter((c): c is Clause => c !== null);
  return extra.length > 0 ? and([where, ...extra]) : where;
}

/** A page of rows and the total count. */
export type RowsPage = { count: number; rows: Row[] };

/**
 * One page of rows and the total count. `readAhead`: the page of the same query read before the
 * reader (so the scope) was known, with no filter; used only where the scope turns out unrestricted.
 */
export async function listRows(services: Services, rc: RequestContext, model: ResolvedModel, query: ListQuery, readAhead?: Promise<RowsPage>): Promise<RowsPage> {
  const where = await scopeClause(services, rc, model, query.params, 'view', services.dialect.db);
  if (where === TRUE && readAhead) return readAhead;
  return readRowsPage(services, model, where, query);
}

/** The page of `model`'s rows matching `where` (query's params are not read: `where` is their clause) and the total count. */
export async function readRowsPage(services: Services, model: ResolvedModel, where: Clause, query: Omit<ListQuery, 'params'>): Promise<RowsPage> {
  const terms = buildOrder(services.registry, model, query.sort);
  const read = services.store.pageReader(services.dialect.db, model);
  const { count, rows } = await readPage({ exec: services.dialect.db, model, where, terms, limit: query.limit, offset: query.offset, shape: `${model.id}|${query.sort ?? ''}`, generation: services.dialect.generationSql, rowCount: services.dialect.rowCountSql, ...(read ? { read } : {}) });
  return { count, rows: read ? (rows as Row[]) : rows.map((r) => services.store.decode(model, r)) };
}

export async function listObjects(services: Services, rc: RequestContext, model: ResolvedModel, query: ListQuery, opts: SerializeOptions) {
  const { count, rows } = await listRows(services, rc, model, query);
  return { count, results: await serialize(services, services.dialect.db, model, rows, opts) };
}

/** 404 text as the reference's DRF `get_object_or_404`. */
export function notFound(model: ResolvedModel): NotFoundError {
  return new NotFoundError(`No ${model.class_name} matches the given query.`);
}

/**
 * The id a detail path segment names: an id, or a composite natural key (`Durham;NC`) as the
 * reference allows. Models with integer ids (content types, groups) are plain Django models in
 * the reference, looked up by id alone: any other text is DRF's bare 404 (a dotted one matches
 * no route there at all).
 */
async function keyId(services: Services, exec: Exec, model: ResolvedModel, key: string): Promise<string | number | null> {
  const id = toRowId(model, key);
  if (id) return id;
  if (model.id_type === 'integer') throw new NotFoundError('Not found.', { versioned: !key.includes('.') });
  if (model.lookup_field) {
    // No stored text holds a NUL character (PostgreSQL would refuse the parameter outright).
    if (key.includes('\0')) return null;
    const named = await exec.selectFrom(model.table).select('id').where(model.lookup_field, '=', key).executeTakeFirst();
    return named ? String(named.id) : null;
  }
  const found = await resolveNaturalKey(services, exec, model, fromCompositeKey(key));
  return found.length === 1 ? found[0] : null;
}

/**
 * The row behind a detail path, within the actor's scope for `action` and the request's filters.
 * For a change or a delete (`exec` is then the write's transaction) the row is locked until the
 * transaction ends, so the write merges into the last committed row (issue 17, lost updates).
 * `readAhead`: the row of the id `key` names, read before the reader (so the scope) was known; used
 * only where the scope turns out unrestricted.
 */
export async function getRow(services: Services, rc: RequestContext, model: ResolvedModel, key: string, params: Params, action: Action, exec: Exec, readAhead?: Promise<Row | undefined>): Promise<Row> {
  const where = await scopeClause(services, rc, model, params, action, exec);
  const id = await keyId(services, exec, model, key);
  if (id === null) throw notFound(model);
  const lock = action === 'change' || action === 'delete';
  // Nothing narrows a read: the store's read by id (its statement text is built once; no query is built here).
  const select = () => exec.selectFrom(model.table).selectAll(model.table).where(and([where, (eb) => eb(`${model.table}.id`, '=', id)]));
  const row = where === TRUE && typeof id === 'string' && !lock
    ? await (readAhead ?? services.store.byId(exec, model, id))
    : await (lock ? services.dialect.lockForUpdate(select()) : select()).executeTakeFirst().then((raw) => raw && services.store.decode(model, raw));
  if (!row) throw notFound(model);
  return row;
}
