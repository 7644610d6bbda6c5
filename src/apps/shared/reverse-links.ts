/**
 * Two writable to-many fields that are one relation seen from both ends (the reference's
 * forward M2M and its reverse, e.g. team `contacts` and contact `teams`): a write of either
 * side replaces the written objects' pairs in the other side's link table, inside the same
 * transaction, so both read the same pairs. Deletes need nothing here: links from a deleted
 * object go with it and links to it are removed generically.
 */
import { chunk } from '../../db/store.js';
import { joinTable } from '../../db/schema/build-schema.js';
import type { AppExtensions, WriteHookContext } from '../../ops/extensions.js';

/** One end of the relation: a model and its to-many field. */
export type RelationEnd = { model: string; field: string };

/** After `from` objects were written with their `from.field` links: `to.field` follows. */
function follow(from: RelationEnd, to: RelationEnd) {
  return async ({ services, exec, plans }: WriteHookContext): Promise<void> => {
    const written = plans.filter((p) => p.links.has(from.field));
    if (written.length === 0) return;
    const toModel = services.registry.get(to.model);
    const toField = toModel.fieldMap.get(to.field)!;
    const ids = written.map((p) => String(p.row.id));
    const table = joinTable(toModel, toField);
    for (const part of chunk(ids)) await exec.deleteFrom(table).where('target_id', 'in', part).execute();
    const pairs = written.flatMap((p) => [...new Set(p.links.get(from.field) ?? [])].map((other) => ({ source_id: other, target_id: String(p.row.id) })));
    for (const part of chunk(pairs)) await exec.insertInto(table).values(part).execute();
  };
}

/** Extensions keeping `a.field` and `b.field` the same relation. */
export function mirrorReverse(a: RelationEnd, b: RelationEnd): AppExtensions {
  return { [a.model]: { afterWrite: follow(a, b) }, [b.model]: { afterWrite: follow(b, a) } };
}
