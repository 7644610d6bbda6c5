import { ValidationError } from '../core/errors.js';
import { rowIdError, toRowId } from '../core/registry/row-id.js';
import { chunk } from '../db/store.js';
import { and } from '../db/query/sql-helpers.js';
import { getRow, scopeClause } from './read.js';
import { requirePermission } from './permissions.js';
import { deleteRows } from './write/delete.js';
import { persist } from './write/persist.js';
import { writeTransaction } from './write/transaction.js';
import { discardImages } from './media/discard-images.js';
import type { Exec } from '../db/store.js';
import type { ResolvedModel, Row } from '../core/registry/types.js';
import type { Params } from './filters/apply.js';
import type { Action } from './permissions.js';
import type { RequestContext, Services } from './services.js';

function typeName(value: unknown): string {
  if (Array.isArray(value)) return 'list';
  if (value === null) return 'NoneType';
  return ({ string: 'str', number: Number.isInteger(value) ? 'int' : 'float', boolean: 'bool' } as Record<string, string>)[typeof value] ?? 'dict';
}

function expectObject(value: unknown): Record<string, unknown> {
  if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  throw new ValidationError({ non_field_errors: [`Invalid data. Expected a dictionary, but got ${typeName(value)}.`] });
}

function expectList(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  throw new ValidationError({ non_field_errors: [`Expected a list of items but got type "${typeName(value)}".`] });
}


/** POST: one object or a list, all or none. */
export async function createObjects(services: Services, rc: RequestContext, model: ResolvedModel, body: unknown): Promise<Row[]> {
  if (rc.actor) requirePermission(services, rc.actor, 'add', model);
  const asList = Array.isArray(body);
  const inputs = asList ? (body as unknown[]) : [body];
  const bad = inputs.map((i) => (i && typeof i === 'object' && !Array.isArray(i) ? {} : { non_field_errors: [`Invalid data. Expected a dictionary, but got ${typeName(i)}.`] }));
  if (bad.some((b) => Object.keys(b).length > 0)) throw new ValidationError(asList ? bad : bad[0]);
  if (inputs.length === 0) return [];
  return writeTransaction(services, model, (trx) => persist(services, trx, rc, model, inputs.map((input) => ({ input: input as Record<string, unknown> })), { partial: false, asList }));
}

/** PUT/PATCH on a detail path. */
export async function updateObject(services: Services, rc: RequestContext, model: ResolvedModel, key: string, params: Params, body: unknown, partial: boolean): Promise<Row> {
  return (await updateObjectRows(services, rc, model, key, params, body, partial))[0];
}

/**
 * `updateObject`'s row as the one-row list the write returned, still marked with what its change
 * log loaded (serialize/preloaded.ts): a response rendered from this list reuses those loads.
 */
export async function updateObjectRows(services: Services, rc: RequestContext, model: ResolvedModel, key: string, params: Params, body: unknown, partial: boolean): Promise<Row[]> {
  const input = expectObject(body);
  let before: Row | undefined;
  const after = await writeTransaction(services, model, async (trx) => {
    before = await getRow(services, rc, model, key, params, 'change', trx);
    return persist(services, trx, rc, model, [{ input, before }], { partial, asList: false });
  });
  await discardImages(services, model, [before!], after);
  return after;
}

/**
 * Rows named by `[{id}, ...]` within the actor's scope; unknown ids are skipped (reference).
 * Locked until the transaction ends, in id order (two bulk writes never wait on each other in a cycle).
 */
async function scopedRows(services: Services, rc: RequestContext, model: ResolvedModel, trx: Exec, ids: string[], action: Action, params: Params): Promise<Map<string, Row>> {
  const where = await scopeClause(services, rc, model, params, action, trx);
  const out = new Map<string, Row>();
  for (const part of chunk([...new Set(ids)].sort())) {
    const select = trx.selectFrom(model.table).selectAll(model.table).where(and([where, (eb) => eb(`${model.table}.id`, 'in', part)])).orderBy(`${model.table}.id`);
    const raw = await services.dialect.lockForUpdate(select).execute();
    for (const row of raw.map((r) => services.store.decode(model, r))) out.set(row.id, row);
  }
  return out;
}

function bulkIds(model: ResolvedModel, body: unknown): { ids: string[]; items: Record<string, unknown>[] } {
  const list = expectList(body);
  const items = list.map((i) => expectObject(i));
  const missing = items.map((i) => (i.id === undefined || i.id === null ? { id: ['This field is required.'] } : {}));
  if (missing.some((m) => Object.keys(m).length > 0)) throw new ValidationError(missing);
  const ids = items.map((i) => toRowId(model, i.id));
  if (ids.some((id) => !id)) throw new ValidationError(items.map((i) => (toRowId(model, i.id) ? {} : { id: [rowIdError(model, i.id) as string] })));
  return { ids: ids as string[], items };
}

/** PUT/PATCH on a list path: `[{id, ...}]`, all or none; returns rows in the order given. */
export async function bulkUpdate(services: Services, rc: RequestContext, model: ResolvedModel, body: unknown, params: Params, partial: boolean): Promise<Row[]> {
  const { ids, items } = bulkIds(model, body);
  let before: Row[] = [];
  const after = await writeTransaction(services, model, async (trx) => {
    const rows = await scopedRows(services, rc, model, trx, ids, 'change', params);
    const work = items.map((input, i) => ({ input, before: rows.get(ids[i]) })).filter((w) => w.before);
    before = work.map((w) => w.before!);
    if (work.length === 0) return [];
    return persist(services, trx, rc, model, work, { partial, asList: false });
  });
  await discardImages(services, model, before, after);
  return after;
}

export async function deleteObject(services: Services, rc: RequestContext, model: ResolvedModel, key: string, params: Params): Promise<void> {
  const row = await writeTransaction(services, model, async (trx) => {
    const found = await getRow(services, rc, model, key, params, 'delete', trx);
    await deleteRows(services, trx, rc, model, [found]);
    return found;
  });
  await discardImages(services, model, [row], null);
}

/** DELETE on a list path: `[{id}]`, all or none. */
export async function bulkDelete(services: Services, rc: RequestContext, model: ResolvedModel, body: unknown, params: Params): Promise<void> {
  const { ids } = bulkIds(model, body);
  const deleted = await writeTransaction(services, model, async (trx) => {
    const rows = [...(await scopedRows(services, rc, model, trx, ids, 'delete', params)).values()];
    if (rows.length > 0) await deleteRows(services, trx, rc, model, rows);
    return rows;
  });
  await discardImages(services, model, deleted, null);
}
