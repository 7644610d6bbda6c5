import { deleteRows } from '../../ops/write/delete.js';
import { persist } from '../../ops/write/persist.js';
import { writeTransaction } from '../../ops/write/transaction.js';
import type { Row } from '../../core/registry/types.js';
import type { Exec } from '../../db/store.js';
import type { RequestContext, Services } from '../../ops/services.js';
import type { OwnedItem } from './contents.js';

/** One kind of object a repository owns, and the items its files now ask for (none when it no longer provides the kind). */
export type OwnedKind = { model: string; grouping: string; noun: string; keyOf(row: Row): string; items: OwnedItem[] };

/** What a sync did to one object, for the job log. */
export type OwnedOutcome = { grouping: string; level: 'info' | 'warning'; message: string; object?: Row };

/** Whether an item's input says nothing the stored row does not already hold. */
function unchanged(row: Row, input: Record<string, unknown>): boolean {
  return Object.entries(input).every(([field, value]) => (field in row
    ? JSON.stringify(row[field]) === JSON.stringify(value)
    : value === null || (Array.isArray(value) && value.length === 0)));
}

type KindWork = { services: Services; trx: Exec; rc: RequestContext; ownerId: string };

/** Creates or updates the items of one kind (removing them from `owned`); returns what each became. */
async function upsertKind(work: KindWork, kind: OwnedKind, owned: Map<string, Row>): Promise<OwnedOutcome[]> {
  const model = work.services.registry.get(kind.model);
  const out: OwnedOutcome[] = [];
  for (const item of kind.items) {
    const existing = owned.get(item.key);
    owned.delete(item.key);
    if (existing && unchanged(existing, item.input)) {
      out.push({ grouping: kind.grouping, level: 'info', message: `No change to ${kind.noun}`, object: existing });
      continue;
    }
    const input = existing ? item.input : { ...item.input, owner_content_type: 'extras.gitrepository', owner_object_id: work.ownerId };
    const [row] = await persist(work.services, work.trx, work.rc, model, [{ input, before: existing }], { partial: !!existing, asList: false });
    out.push({ grouping: kind.grouping, level: 'info', message: `Successfully ${existing ? 'refreshed' : 'created'} ${kind.noun}`, object: row });
  }
  return out;
}

/** Deletes the rows of one kind the repository no longer provides. */
async function deleteRest(work: KindWork, kind: OwnedKind, rest: Row[]): Promise<OwnedOutcome[]> {
  if (rest.length > 0) await deleteRows(work.services, work.trx, work.rc, work.services.registry.get(kind.model), rest);
  return rest.map((row) => ({ grouping: kind.grouping, level: 'warning', message: `Deleted ${kind.noun} ${kind.keyOf(row)}` }));
}

/**
 * Brings the objects a repository owns in line with its files, every kind in one transaction: an
 * error leaves every object as it was. Kinds are created in the order given (schemas before the
 * contexts naming them), then `more` runs (local config contexts), then kinds are deleted in the
 * reverse order.
 */
export async function applyOwned(services: Services, rc: RequestContext, ownerId: string, kinds: OwnedKind[], more?: (trx: Exec) => Promise<OwnedOutcome[]>): Promise<OwnedOutcome[]> {
  return writeTransaction(services, services.registry.get(kinds[0].model), async (trx) => {
    const work: KindWork = { services, trx, rc, ownerId };
    const owned = new Map<OwnedKind, Map<string, Row>>();
    for (const kind of kinds) {
      const rows = await services.store.where(trx, services.registry.get(kind.model), { owner_object_id: ownerId });
      owned.set(kind, new Map(rows.map((row) => [kind.keyOf(row), row])));
    }
    const outcomes: OwnedOutcome[] = [];
    for (const kind of kinds) outcomes.push(...await upsertKind(work, kind, owned.get(kind)!));
    if (more) outcomes.push(...await more(trx));
    for (const kind of [...kinds].reverse()) outcomes.push(...await deleteRest(work, kind, [...owned.get(kind)!.values()]));
    return outcomes;
  });
}
