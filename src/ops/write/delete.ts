import { ConflictError } from '../../core/errors.js';
import { extensionsFor } from '../extensions.js';
import { Loader } from '../loader.js';
import { chunk } from '../../db/store.js';
import { recordChanges } from './changelog.js';
import type { Exec } from '../../db/store.js';
import type { ResolvedModel, Row } from '../../core/registry/types.js';
import type { RequestContext, Services } from '../services.js';

type Doomed = Map<ResolvedModel, Map<string, Row>>;

async function referencing(exec: Exec, services: Services, model: ResolvedModel, column: string, ids: string[]): Promise<Row[]> {
  const rows: Row[] = [];
  for (const part of chunk(ids)) {
    for (const r of await exec.selectFrom(model.table).selectAll().where(column, 'in', part).execute()) rows.push(services.store.decode(model, r));
  }
  return rows;
}

/** Follows CASCADE references breadth-first: every row the delete will remove. */
async function collectCascade(services: Services, exec: Exec, model: ResolvedModel, rows: Row[]): Promise<Doomed> {
  const doomed: Doomed = new Map([[model, new Map(rows.map((r) => [r.id, r]))]]);
  let frontier: [ResolvedModel, string[]][] = [[model, rows.map((r) => r.id)]];
  while (frontier.length > 0) {
    const next: [ResolvedModel, string[]][] = [];
    for (const [target, ids] of frontier) {
      for (const { model: source, field } of services.registry.referencesTo(target.id)) {
        if (field.kind !== 'fk' || field.on_delete !== 'CASCADE') continue;
        const found = (await referencing(exec, services, source, field.column as string, ids)).filter((r) => !doomed.get(source)?.has(r.id));
        if (found.length === 0) continue;
        const map = doomed.get(source) ?? new Map<string, Row>();
        for (const r of found) map.set(r.id, r);
        doomed.set(source, map);
        next.push([source, found.map((r) => r.id)]);
      }
    }
    frontier = next;
  }
  return doomed;
}

/** 409 when a PROTECT reference from a row that survives points into the doomed set. */
async function checkProtected(services: Services, exec: Exec, doomed: Doomed): Promise<void> {
  const blockers: [ResolvedModel, Row][] = [];
  for (const [target, rows] of doomed) {
    for (const { model: source, field } of services.registry.referencesTo(target.id)) {
      if (field.kind !== 'fk' || field.on_delete !== 'PROTECT') continue;
      for (const r of await referencing(exec, services, source, field.column as string, [...rows.keys()])) {
        if (!doomed.get(source)?.has(r.id)) blockers.push([source, r]);
      }
    }
  }
  if (blockers.length === 0) return;
  const loader = new Loader(services, exec);
  for (const [m, r] of blockers) { loader.add(m, [r]); await loader.ensureNeeds(m, [r]); }
  const listed = blockers.map(([m, r]) => `${m.str_field ? String(r[m.str_field] ?? '') : loader.display(m, r)} (${r.id})`).join(', ');
  throw new ConflictError(`Unable to delete object. ${blockers.length} dependent objects were found: ${listed}`);
}

/** Clears SET_NULL references, unlinks to-many links and notes pointing at doomed rows. */
async function detach(services: Services, exec: Exec, doomed: Doomed): Promise<void> {
  for (const [target, rows] of doomed) {
    const ids = [...rows.keys()];
    for (const { model: source, field } of services.registry.referencesTo(target.id)) {
      if (field.kind === 'm2m') await services.store.unlinkTargets(exec, source, field, ids);
      else if (field.kind === 'fk' && field.on_delete === 'SET_NULL') {
        for (const part of chunk(ids)) await exec.updateTable(source.table).set({ [field.column as string]: null }).where(field.column as string, 'in', part).execute();
      }
    }
    const notes = services.registry.find('extras.note');
    // Notes name their object by UUID; integer-id models carry none (registry checkIntegerIds).
    if (notes && target !== notes && target.id_type === 'uuid') {
      for (const part of chunk(ids)) await exec.deleteFrom(notes.table).where('assigned_object_id', 'in', part).execute();
    }
  }
}

/** Deletes rows with their cascade, all or nothing; records a delete change per object. */
export async function deleteRows(services: Services, exec: Exec, rc: RequestContext, model: ResolvedModel, rows: Row[]): Promise<void> {
  const doomed = await collectCascade(services, exec, model, rows);
  await checkProtected(services, exec, doomed);
  for (const [m, map] of doomed) await recordChanges(services, exec, rc, m, 'delete', [...map.values()]);
  for (const [m, map] of doomed) for (const ext of extensionsFor(services, m)) await ext.beforeDelete?.({ services, exec, rc, model: m, rows: [...map.values()] });
  await detach(services, exec, doomed);
  for (const [m, map] of [...doomed].reverse()) await services.store.deleteIds(exec, m, [...map.keys()]);
  for (const [m, map] of doomed) for (const ext of extensionsFor(services, m)) await ext.afterDelete?.({ services, exec, rc, model: m, rows: [...map.values()] });
}
