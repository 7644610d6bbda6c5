import { joinTable } from '../../db/schema/build-schema.js';
import { TRUE, col, not, or } from '../../db/query/sql-helpers.js';
import { chunk } from '../../db/store.js';
import { filterSet } from '../../ops/filters/filter-set.js';
import { FilterError, invalidChoice, resolveIds, withDescendants } from '../../ops/filters/resolve-values.js';
import { toUuidTerm } from '../../ops/filters/search.js';
import { withAncestors } from './ancestors.js';
import { nullBoolean } from './null-boolean.js';
import type { Clause } from '../../db/query/sql-helpers.js';
import type { Exec } from '../../db/store.js';
import type { Registry } from '../../core/registry/registry.js';
import type { ResolvedField, ResolvedModel } from '../../core/registry/types.js';
import type { FilterContext, FilterDef } from '../../ops/filters/filter-set.js';
import type { AppExtensions } from '../../ops/extensions.js';

/**
 * Filters the reference offers beyond a model's own fields, each derived from the registry by
 * its name alone (catalogue `filters`):
 * - `<fk>_id`: the FK's own filter under another name (`tenant_id`);
 * - `has_<fk>`: the FK is set (`has_device_type`; a few others in ANY_OF);
 * - `subtree` of a tree model: the given objects and their descendants;
 * - `<related>` / `has_<related>`: objects of another model pointing here, by their plural
 *   name (`devices`, `has_interfaces`; `children` for a tree's own parent);
 * - `<name>=<fk>__<filter>`: a generated filter of a related model (`location=device__location`:
 *   the location of a console port is its device's);
 * - `<name>=<related>.<filter>`: objects with a related object matching its filter
 *   (`mac_address=interfaces.mac_address`); `<name>=@<entry>`: another name for an entry;
 * - `<name>=^<fk>`: the FK is one of the given objects or one of their ancestors;
 * - `<name>=pk:<related>`: objects with one of the given related objects (FK pointing here, by its
 *   plural or Django related name), named by primary key alone, with `__n` and `__isnull` (the
 *   reference's plain ModelMultipleChoiceFilter on a reverse relation, e.g. from Meta.fields).
 */
type Derived = { build(ctx: FilterContext, lookup: string, values: string[]): Promise<Clause> };

const TRUE_VALUES = ['true', 'True', '1'];

/** Relation names the reference gives differently from the plural verbose name (`members` of a virtual chassis). */
const RELATED_NAMES: Record<string, string> = {
  'dcim.device.virtual_chassis': 'members',
  'dcim.module.parent_module_bay': 'installed_module',
  'dcim.interface.parent_interface': 'child_interfaces',
  'dcim.interface.bridge': 'bridged_interfaces',
  'dcim.interface.lag': 'member_interfaces',
  'virtualization.vminterface.parent_interface': 'child_interfaces',
  'virtualization.vminterface.bridge': 'bridged_interfaces',
  'virtualization.vminterface.virtual_machine': 'interfaces',
  'circuits.circuittermination.circuit': 'terminations',
  'ipam.vrf.import_targets': 'importing_vrfs',
  'ipam.vrf.export_targets': 'exporting_vrfs',
  'dcim.powerfeed.destination_panel': 'feeders',
};

/** Boolean filters true when any of these FKs is set, beyond `has_<fk>`. */
const ANY_OF: Record<string, string[]> = {
  has_primary_ip: ['primary_ip4', 'primary_ip6'],
  is_virtual_chassis_member: ['virtual_chassis'],
  virtual_chassis_member: ['virtual_chassis'],
  is_installed: ['parent_module_bay'],
};

function relatedName(owner: ResolvedModel, field: ResolvedField, target: ResolvedModel): string {
  const named = RELATED_NAMES[`${owner.id}.${field.name}`];
  if (named) return named;
  if (owner.id === target.id && field.name === 'parent') return 'children';
  return owner.verbose_name_plural.toLowerCase().replace(/ /g, '_');
}

/** Rows of `model` that objects of the relation point at (only those of `sources` when given). */
function pointedAt(model: ResolvedModel, owner: ResolvedModel, field: ResolvedField, sources?: string[]): Clause {
  if (field.kind === 'm2m') {
    const table = joinTable(owner, field);
    const linked = (eb: Parameters<Clause>[0]) => eb.selectFrom(table).select('target_id');
    return (eb) => eb(col(model.table, 'id'), 'in', sources ? linked(eb).where('source_id', 'in', sources) : linked(eb));
  }
  const column = col(owner.table, field.column as string);
  // Never a NULL in the list: `NOT IN (..., NULL)` matches nothing.
  const pointing = (eb: Parameters<Clause>[0]) => eb.selectFrom(owner.table).select(column.as('target')).where(column, 'is not', null);
  return (eb) => eb(col(model.table, 'id'), 'in', sources ? pointing(eb).where(col(owner.table, 'id'), 'in', sources) : pointing(eb));
}

function reverse(registry: Registry, model: ResolvedModel, name: string): Derived | undefined {
  const has = name.startsWith('has_');
  const stored = registry.referencesTo(model.id).filter((r) => r.field.kind === 'fk' || !r.field.read_only);
  const ref = stored.find((r) => relatedName(r.model, r.field, model) === (has ? name.slice(4) : name));
  if (!ref) return undefined;
  const some = pointedAt(model, ref.model, ref.field);
  return {
    async build({ exec }, lookup, values) {
      if (has) return TRUE_VALUES.includes(values[values.length - 1]) ? some : not(some);
      if (lookup === 'isnull') return isNullClause(values, some);
      // `null` names "no related object", as for an FK filter.
      const named = values.filter((v) => v !== 'null');
      const none = named.length < values.length ? [not(some)] : [];
      const matched = named.length > 0 ? [pointedAt(model, ref.model, ref.field, await resolveIds(exec, ref.model, named))] : [];
      const clause = or([...matched, ...none]);
      return lookup === 'n' ? not(clause) : clause;
    },
  };
}

/** `<related>__isnull`: without (`true`) or with (`false`) `some` related object; no filter for another value (the reference's BooleanFilter). */
function isNullClause(values: string[], some: Clause): Clause {
  const isNull = nullBoolean(values);
  return isNull === undefined ? TRUE : isNull ? not(some) : some;
}

/**
 * Entries that name a reverse relation (`devices`) or a subtree, not an own field (`has_*`,
 * `<fk>_id`, ANY_OF names): the reference generates `__isnull` beside `__n` for them, reverse
 * relations being nullable model fields to django-filter.
 */
function takesIsNull(entry: string): boolean {
  if (entry.includes('=')) return entry.includes('=pk:');
  return !entry.startsWith('has_') && !entry.endsWith('_id') && !(entry in ANY_OF) && entry !== 'subtree';
}

/** `has_<m2m>`: the object has at least one related object of a many-to-many field (`has_tagged_vlans`). */
function hasMany(model: ResolvedModel, name: string): Derived | undefined {
  const field = name.startsWith('has_') ? model.fieldMap.get(name.slice(4)) : undefined;
  if (field?.kind !== 'm2m') return undefined;
  const set: Clause = (eb) => eb(col(model.table, 'id'), 'in', eb.selectFrom(joinTable(model, field)).select('source_id'));
  return { build: async (_ctx, _lookup, values) => (TRUE_VALUES.includes(values[values.length - 1]) ? set : not(set)) };
}

function ownField(model: ResolvedModel, name: string): Derived | undefined {
  const fk = (n: string) => (model.fieldMap.get(n)?.kind === 'fk' ? model.fieldMap.get(n) : undefined);
  const alias = name.endsWith('_id') ? fk(name.slice(0, -3)) : undefined;
  if (alias) return { build: (ctx, lookup, values) => filterSet(model).get(alias.name)!.build(ctx, lookup, values) };
  const many = hasMany(model, name);
  if (many) return many;
  const present = ANY_OF[name]?.map(fk) ?? (name.startsWith('has_') ? [fk(name.slice(4))] : []);
  if (present.length === 0 || present.some((f) => !f)) return undefined;
  const set: Clause = or(present.map((f) => (eb) => eb(col(model.table, f!.column as string), 'is not', null)));
  return { build: async (_ctx, _lookup, values) => (TRUE_VALUES.includes(values[values.length - 1]) ? set : not(set)) };
}

/** `<fk>__<filter>`: the generated filter of the FK's model, e.g. `device__location`; FKs chain (`master__tenant__tenant_group`). */
function through(registry: Registry, model: ResolvedModel, path: string): Derived | undefined {
  const [hop, ...rest] = path.split('__');
  const field = model.fieldMap.get(hop);
  if (field?.kind !== 'fk' || !field.column || rest.length === 0) return undefined;
  const target = registry.get(field.to as string);
  const def = rest.length > 1 ? through(registry, target, rest.join('__')) : filterSet(target).get(rest[0]) ?? resolveDerived(registry, target, rest[0]);
  if (!def) return undefined;
  // A `has_` filter false through an FK: no related object that has it (objects without one included).
  const boolean = rest[rest.length - 1].startsWith('has_');
  return {
    async build(ctx, lookup, values) {
      const absent = boolean && !TRUE_VALUES.includes(values[values.length - 1]);
      const inner = await def.build({ ...ctx, model: target }, lookup, absent ? ['true'] : values);
      const clause: Clause = (eb) => eb(col(model.table, field.column as string), 'in', eb.selectFrom(target.table).select(`${target.table}.id`).where(inner));
      if (!absent) return clause;
      // Without the FK set there is no related object either (SQL's NOT IN leaves NULL out).
      const unset: Clause = (eb) => eb(col(model.table, field.column as string), 'is', null);
      return or([unset, not(clause)]);
    },
  };
}

/** `subtree` of a tree model: the given objects and every descendant. */
function subtree(model: ResolvedModel, name: string): Derived | undefined {
  if (name !== 'subtree' || !model.tree) return undefined;
  return {
    async build({ exec }, lookup, values) {
      const ids = await withDescendants(exec, model, await resolveIds(exec, model, values));
      const clause: Clause = (eb) => eb(col(model.table, 'id'), 'in', ids);
      return lookup === 'n' ? not(clause) : clause;
    },
  };
}

/**
 * `<related>.<filter>`: objects with a related object (FK pointing here) matching its filter (generated or derived),
 * e.g. `interfaces.mac_address`; relations chain (`circuits.terminations.location`). With `:<value>` the entry is a
 * boolean: some related object matches the filter with that value (`module_bays.has_installed_module:false`).
 */
function reverseThrough(registry: Registry, model: ResolvedModel, path: string): Derived | undefined {
  const [chain, fixed] = path.split(':');
  const [related, ...rest] = chain.split('.');
  const name = rest.join('.');
  const ref = registry.referencesTo(model.id).find((r) => r.field.kind === 'fk' && relatedName(r.model, r.field, model) === related);
  const def = !ref || !name ? undefined : rest.length > 1 ? reverseThrough(registry, ref.model, name) : filterSet(ref.model).get(name) ?? resolveDerived(registry, ref.model, name);
  if (!ref || !def) return undefined;
  const column = col(ref.model.table, ref.field.column as string);
  const boolean = fixed !== undefined || rest[rest.length - 1].startsWith('has_');
  return {
    async build(ctx, lookup, values) {
      // A boolean false through a relation: no related object matches (not: some related object does not).
      const absent = boolean && !TRUE_VALUES.includes(values[values.length - 1]);
      const inner = await def.build({ ...ctx, model: ref.model }, lookup, fixed !== undefined ? [fixed] : absent ? ['true'] : values);
      const clause: Clause = (eb) => eb(col(model.table, 'id'), 'in', eb.selectFrom(ref.model.table).select(column.as('target')).where(column, 'is not', null).where(inner));
      return absent ? not(clause) : clause;
    },
  };
}

/** `^<fk>`: the FK is one of the given objects (id or name) or an ancestor of one (`ancestors` of a rack group: `^location`). */
function ancestorsOf(registry: Registry, model: ResolvedModel, fkName: string): Derived | undefined {
  const field = model.fieldMap.get(fkName);
  if (field?.kind !== 'fk' || !field.column) return undefined;
  const target = registry.get(field.to as string);
  if (!target.tree) return undefined;
  return {
    async build({ services, exec }, lookup, values) {
      const ids = await withAncestors(services, exec, target, await resolveIds(exec, target, values));
      const clause: Clause = (eb) => eb(col(model.table, field.column as string), 'in', ids);
      return lookup === 'n' ? not(clause) : clause;
    },
  };
}

/**
 * The ids of `model` the values name, as Django's ModelMultipleChoiceField checks primary keys:
 * a value that is no UUID at all is refused in the UUID field's words, and one that names no
 * object, or names one in another form than its canonical text, is an invalid choice.
 */
async function requirePks(exec: Exec, model: ResolvedModel, values: string[]): Promise<string[]> {
  const malformed = values.find((v) => !toUuidTerm(v));
  if (malformed !== undefined) throw new FilterError(`“${malformed}” is not a valid UUID.`);
  const found = new Set<string>();
  for (const part of chunk([...new Set(values.map((v) => toUuidTerm(v) as string))])) {
    for (const row of await exec.selectFrom(model.table).select('id').where('id', 'in', part).execute()) found.add(String(row.id));
  }
  const missing = values.find((v) => !found.has(v));
  if (missing !== undefined) throw invalidChoice(missing);
  return [...found];
}

/** `pk:<related>`: see the list at the top; `__isnull` reads its value as the reference's BooleanFilter. */
function reverseByPk(registry: Registry, model: ResolvedModel, related: string): Derived | undefined {
  const names = (r: { model: ResolvedModel; field: ResolvedField }) => [relatedName(r.model, r.field, model), r.field.related_name];
  const ref = registry.referencesTo(model.id).find((r) => r.field.kind === 'fk' && names(r).includes(related));
  if (!ref || ref.model.id_type !== 'uuid') return undefined;
  return {
    async build({ exec }, lookup, values) {
      if (lookup === 'isnull') return isNullClause(values, pointedAt(model, ref.model, ref.field));
      const clause = pointedAt(model, ref.model, ref.field, await requirePks(exec, ref.model, values));
      return lookup === 'n' ? not(clause) : clause;
    },
  };
}

/** `name`, `name=<fk>__<filter>`, `name=<related>.<filter>`, `name=pk:<related>`, or `name=@<other entry>` (an alias). */
function resolveDerived(registry: Registry, model: ResolvedModel, entry: string): Derived | undefined {
  const [name, path] = entry.split('=');
  if (path?.startsWith('@')) return resolveDerived(registry, model, path.slice(1));
  if (path?.includes('.')) return reverseThrough(registry, model, path);
  if (path?.startsWith('^')) return ancestorsOf(registry, model, path.slice(1));
  if (path?.startsWith('pk:')) return reverseByPk(registry, model, path.slice(3));
  return path ? through(registry, model, path) : ownField(model, name) ?? subtree(model, name) ?? reverse(registry, model, name);
}

/** A derived filter, resolved against the registry on use. */
function derivedFilter(modelId: string, entry: string): FilterDef {
  return {
    lookups: new Set(takesIsNull(entry) ? ['n', 'isnull'] : ['n']),
    async build(ctx, lookup, values) {
      const derived = resolveDerived(ctx.services.registry, ctx.services.registry.get(modelId), entry);
      if (!derived) throw new FilterError(`No way to derive the filter ${entry} of ${modelId}`);
      return derived.build(ctx, lookup, values);
    },
  };
}

/** Whether a filter entry derives for a model (the registry test checks every declared one). */
export function derives(registry: Registry, modelId: string, entry: string): boolean {
  return resolveDerived(registry, registry.get(modelId), entry) !== undefined;
}

/** An extension table of derived filters: model id -> entries (`name` or `name=<fk>__<filter>`). */
export function derivedFilters(entries: Record<string, string[]>): AppExtensions {
  const table = (modelId: string, list: string[]) => Object.fromEntries(list.map((e) => [e.split('=')[0], derivedFilter(modelId, e)]));
  return Object.fromEntries(Object.entries(entries).map(([modelId, list]) => [modelId, { filters: table(modelId, list) }]));
}
