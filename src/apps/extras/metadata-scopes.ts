import { Loader } from '../../ops/loader.js';
import type { AppExtensions, WriteHookContext } from '../../ops/extensions.js';
import type { Row } from '../../core/registry/types.js';
import type { ItemPlan } from '../../ops/write/build-item.js';

/** The fields a metadata row scopes: `[]` is every field of the object. */
const scopeOf = (row: Row): string[] => (Array.isArray(row.scoped_fields) ? (row.scoped_fields as unknown[]).map(String) : []);

/** A Python set of strings as the reference prints it. */
const pySet = (values: string[]): string => `{${values.map((v) => `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`).join(', ')}}`;

/** The reference's complaint when `mine` overlaps `theirs` (both of one type on one object), or undefined. */
function overlap(mine: string[], theirs: string[], names: { self: string; type: string; object: string }): string | undefined {
  if (mine.length === 0) return `This Object Metadata ${names.self} scoping all the fields for ${names.object} has overlapped with the scoped fields of other Object Metadata instances.`;
  if (theirs.length === 0) return `There are other Object Metadata instances of metadata type ${names.type} scoping all the fields for ${names.object}`;
  const shared = mine.filter((f) => theirs.includes(f));
  return shared.length > 0 ? `There are other Object Metadata instances of metadata type ${names.type} scoping the same fields ${pySet([...new Set(shared)])} for ${names.object}` : undefined;
}

/** Where two metadata rows would record the same thing: one metadata type on one object. */
const slot = (row: Row): string => `${String(row.metadata_type_id)} ${String(row.assigned_object_type)} ${String(row.assigned_object_id)}`;

/**
 * Object metadata of one type on one object may not scope the same field twice (an empty scope
 * is every field), against the stored rows and the rows before it in the same request: a 400
 * on `scoped_fields` in the reference's words. One query for the whole batch.
 */
async function checkScopedFields({ services, exec, model, plans }: WriteHookContext): Promise<void> {
  const checked = plans.filter((p) => Object.keys(p.errors).length === 0 && p.row.metadata_type_id && p.row.assigned_object_id);
  if (checked.length === 0) return;
  const slots = new Set(checked.map((p) => slot(p.row)));
  const typeIds = [...new Set(checked.map((p) => String(p.row.metadata_type_id)))];
  const stored = (await exec.selectFrom(model.table).selectAll().where('metadata_type_id', 'in', typeIds).execute())
    .map((r) => services.store.decode(model, r))
    .filter((r) => slots.has(slot(r)));
  const loader = new Loader(services, exec);
  loader.add(model, checked.map((p) => p.row));
  await loader.ensureNeeds(model, checked.map((p) => p.row));
  const written = new Set(checked.map((p) => p.row.id));
  const seen: Row[] = stored.filter((r) => !written.has(r.id));
  for (const plan of checked) {
    const object = loader.get(String(plan.row.assigned_object_type), plan.row.assigned_object_id);
    const others = seen.filter((r) => slot(r) === slot(plan.row));
    seen.push(plan.row);
    if (!object) continue; // a missing object is refused by the generic relation check
    const names = { self: loader.display(model, plan.row), type: String(loader.get('extras.metadatatype', plan.row.metadata_type_id)?.name ?? ''), object: loader.display(services.registry.get(String(plan.row.assigned_object_type)), object) };
    const message = others.map((r) => overlap(scopeOf(plan.row), scopeOf(r), names)).find(Boolean);
    if (message) addScopeError(plan, message);
  }
}

function addScopeError(plan: ItemPlan, message: string): void {
  (plan.errors.scoped_fields ??= []).push(message);
}

/** Object metadata scopes do not overlap. */
export const metadataScopesTable: AppExtensions = {
  'extras.objectmetadata': { parseInput: checkScopedFields },
};
