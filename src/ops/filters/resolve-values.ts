import { fromStoredId, toRowId } from '../../core/registry/row-id.js';
import { chunk } from '../../db/store.js';
import type { Exec } from '../../db/store.js';
import type { ResolvedModel } from '../../core/registry/types.js';

/** Thrown while parsing one filter parameter; becomes `{param: [message]}`. */
export class FilterError extends Error {}

export const invalidChoice = (value: string) => new FilterError(`Select a valid choice. ${value} is not one of the available choices.`);

/** Refuses a value that is not an id of `model`, in Django's words for a malformed primary key. */
export function requireRowIds(model: ResolvedModel, values: string[]): void {
  const invalid = values.find((value) => !toRowId(model, value));
  if (invalid !== undefined) throw new FilterError(`“${invalid}” is not a valid value.`);
}

/**
 * The single natural-key field by which filters and references may name an object; none for a
 * model named by its id alone (values go through `toRowId` instead, so a non-id never reaches
 * the id column).
 */
export function nameColumn(model: ResolvedModel): string | undefined {
  const key = model.natural_key.length === 1 && model.natural_key[0] !== 'pk' ? model.fieldMap.get(model.natural_key[0]) : undefined;
  if (key?.name === 'id') return undefined;
  if (key?.column && key.kind !== 'fk') return key.column;
  return model.fieldMap.get('name')?.column ?? undefined;
}

/**
 * Object ids for filter values given as UUIDs or natural-key names; a value matching nothing
 * is an invalid choice (the reference's ModelMultipleChoiceFilter).
 */
export async function resolveIds(exec: Exec, model: ResolvedModel, values: string[]): Promise<string[]> {
  const byName = nameColumn(model);
  const ids = new Set<string>();
  const seen = new Set<string>();
  for (const part of chunk(values)) {
    const uuids = part.map((v) => toRowId(model, v)).filter((u): u is string => !!u);
    // A value that reads as an id is looked up as one only, as the reference's
    // MultiMatchModelMultipleChoiceField does (and no name index scan is paid for it).
    const names = model.id_type === 'uuid' ? part.filter((v) => !toRowId(model, v)) : part;
    let query = exec.selectFrom(model.table).select(['id']);
    if (byName) query = query.select(`${byName} as name`);
    const rows = await query
      .where((eb) => eb.or([
        ...(uuids.length ? [eb('id', 'in', uuids)] : []),
        ...(byName && names.length ? [eb(byName, 'in', names)] : []),
        ...(!uuids.length && !(byName && names.length) ? [eb('id', 'is', null)] : []),
      ]))
      .execute();
    for (const row of rows) {
      ids.add(fromStoredId(row.id));
      seen.add(fromStoredId(row.id));
      if (byName) seen.add(String((row as Record<string, unknown>).name));
    }
  }
  for (const value of values) if (!seen.has(toRowId(model, value) ?? value)) throw invalidChoice(value);
  return [...ids];
}

/** Ids plus all descendant ids in a tree model (one query per tree level). */
export async function withDescendants(exec: Exec, model: ResolvedModel, ids: string[]): Promise<string[]> {
  const all = new Set(ids);
  let frontier = ids;
  for (let guard = 0; frontier.length > 0 && guard < 100; guard += 1) {
    const next: string[] = [];
    for (const part of chunk(frontier)) {
      const rows = await exec.selectFrom(model.table).select('id').where('parent_id', 'in', part).execute();
      for (const r of rows) if (!all.has(r.id as string)) { all.add(r.id as string); next.push(r.id as string); }
    }
    frontier = next;
  }
  return [...all];
}
