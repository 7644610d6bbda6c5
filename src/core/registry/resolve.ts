import { KINDS } from '../fields/index.js';
import type { AuthoredField, AuthoredModel, ResolvedField, ResolvedModel, ResolvedSearch, SearchPredicate } from './types.js';

const BASE_FEATURES: Record<AuthoredModel['base'], string[]> = {
  primary: ['custom_fields', 'tags', 'relationships', 'notes', 'change_logging', 'timestamps'],
  organizational: ['custom_fields', 'relationships', 'notes', 'change_logging', 'timestamps'],
  base: [],
};

/** Thrown at start-up for a declaration mistake; names the model and field. */
export class RegistryError extends Error {}

export function toLabel(name: string): string {
  const words = name.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function toClassName(verboseName: string): string {
  return verboseName.split(/\s+/).map((w) => (w === w.toUpperCase() ? w : w.charAt(0).toUpperCase() + w.slice(1))).join('');
}

function resolveFeatures(model: AuthoredModel): Set<string> {
  const features = new Set(BASE_FEATURES[model.base]);
  for (const entry of model.features ?? []) {
    if (entry.startsWith('-')) features.delete(entry.slice(1));
    else features.add(entry);
  }
  return features;
}

function resolveField(modelId: string, name: string, authored: AuthoredField, extra: Partial<ResolvedField> = {}): ResolvedField {
  const behaviour = KINDS[authored.kind];
  if (!behaviour) throw new RegistryError(`${modelId}.${name}: unknown field kind "${authored.kind}"`);
  if ((authored.kind === 'fk' || authored.kind === 'm2m') && !authored.to) throw new RegistryError(`${modelId}.${name}: ${authored.kind} needs "to"`);
  const stored = behaviour.storage !== 'none' && !behaviour.derived;
  const required = authored.required ?? false;
  return Object.freeze({
    ...authored,
    name,
    label: authored.label ?? toLabel(name),
    column: stored ? (authored.kind === 'fk' ? `${name}_id` : name) : null,
    behaviour,
    required,
    nullable: authored.nullable ?? false,
    blank: authored.blank ?? !required,
    read_only: authored.read_only ?? false,
    ...extra,
  });
}

/** The `id` field per primary-key type (AuthoredModel `id_type`). */
const ID_FIELDS: Record<NonNullable<AuthoredModel['id_type']>, AuthoredField> = {
  uuid: { kind: 'uuid' },
  integer: { kind: 'auto_id', read_only: true },
};

const COMMON_HEAD: [string, AuthoredField][] = [
  ['id', ID_FIELDS.uuid],
  ['object_type', { kind: 'string', read_only: true, no_filter: true }],
  ['display', { kind: 'string', read_only: true, options_type: 'field', no_filter: true }],
  ['url', { kind: 'string', read_only: true, options_type: 'field', no_filter: true }],
  ['natural_slug', { kind: 'string', read_only: true, options_type: 'field', no_filter: true }],
];

function commonTail(features: Set<string>, declared: Record<string, AuthoredField>): [string, AuthoredField, string?][] {
  const tail: [string, AuthoredField, string?][] = [];
  if (features.has('timestamps') && !declared.created) {
    tail.push(['created', { kind: 'datetime', read_only: true, nullable: true }]);
    tail.push(['last_updated', { kind: 'datetime', read_only: true, nullable: true }]);
  }
  if (features.has('notes')) tail.push(['notes_url', { kind: 'string', read_only: true, options_type: 'field', no_filter: true }]);
  if (features.has('custom_fields')) {
    tail.push(['custom_fields', { kind: 'json', options_type: 'field', no_filter: true }]);
    tail.push(['computed_fields', { kind: 'json', read_only: true, options_type: 'field', no_filter: true }, 'computed_fields']);
  }
  if (features.has('relationships')) tail.push(['relationships', { kind: 'json', options_type: 'field', no_filter: true }, 'relationships']);
  if (features.has('tags')) tail.push(['tags', { kind: 'm2m', to: 'extras.tag', limit_to_content_type: true, options_type: 'field' }]);
  return tail;
}

/** Puts the named fields first, in that order (AuthoredModel `head_order`). */
function moveToHead(modelId: string, fields: ResolvedField[], head: readonly string[]): void {
  const named = head.map((name) => fields.find((fld) => fld.name === name));
  const unknown = head.find((_, n) => !named[n]);
  if (unknown) throw new RegistryError(`${modelId}: head_order names unknown field "${unknown}"`);
  fields.splice(0, fields.length, ...(named as ResolvedField[]), ...fields.filter((fld) => !head.includes(fld.name)));
}

/**
 * AuthoredModel `change_related` -> the named fields, each an FK or a generic FK whose
 * `<name>_type`/`<name>_id` are stored; the `via` path is checked by the registry, which knows
 * every model.
 */
function resolveChangeRelated(id: string, authored: AuthoredModel['change_related'], fieldMap: ReadonlyMap<string, ResolvedField>): ResolvedModel['change_related'] {
  if (authored === undefined) return null;
  const rule = typeof authored === 'string' ? { fields: [authored] } : 'fields' in authored ? authored : { fields: authored as readonly string[] };
  const fields = rule.fields.map((name) => {
    const field = fieldMap.get(name);
    const stored = (n: string) => fieldMap.get(n)?.column != null;
    const ok = field && ((field.kind === 'fk' && field.column) || (field.kind === 'generic_fk' && stored(`${name}_type`) && stored(`${name}_id`)));
    if (!ok) throw new RegistryError(`${id}: change_related names "${name}", not a stored FK or generic FK`);
    return field;
  });
  const via = [...(rule.via ?? [])];
  if (fields.length === 0) throw new RegistryError(`${id}: change_related names no field`);
  return Object.freeze({ fields: Object.freeze(fields), via: Object.freeze(via) });
}

/** Every `q` matches the id, compared as text without case (the reference's default `id__iexact`). */
const ID_SEARCH: ResolvedSearch = Object.freeze({ path: 'id', lookup: 'iexact', term: 'strip' });

function resolveSearchPredicate(predicate: SearchPredicate): ResolvedSearch {
  const { path, lookup = 'icontains', term } = typeof predicate === 'string' ? { path: predicate } : predicate;
  return Object.freeze({ path, lookup, term: term ?? (lookup === 'icontains' ? 'raw' : 'strip') });
}

/** `q` predicates: the declared ones (`name` by default, when the model has one) after `id`; null for no `q`. */
function resolveSearch(model: AuthoredModel): readonly ResolvedSearch[] | null {
  const declared = model.search === undefined && 'name' in model.fields ? ['name'] : model.search;
  if (!declared) return null;
  return Object.freeze([ID_SEARCH, ...declared.map(resolveSearchPredicate)]);
}

/** The field an ordering entry sorts by: `-name` descending, `fk__id` by the FK column itself. */
export function orderingField(entry: string): string {
  return entry.replace(/^-/, '').replace(/__id$/, '');
}

/** Authored declaration -> resolved, frozen model. */
export function resolveModel(model: AuthoredModel): ResolvedModel {
  const id = model.object_type ?? `${model.app}.${model.model}`;
  const features = resolveFeatures(model);
  const fields: ResolvedField[] = [];
  for (const [name, def] of COMMON_HEAD) {
    const authored = name === 'id' ? ID_FIELDS[model.id_type ?? 'uuid'] : def;
    fields.push(resolveField(id, name, authored, { common: true, column: name === 'id' ? 'id' : null }));
  }
  const declared = Object.entries(model.fields);
  for (const [name, def] of declared.filter(([, d]) => !d.after_tail)) fields.push(resolveField(id, name, def));
  const tail = commonTail(features, model.fields);
  if (model.tail_order) tail.sort((a, b) => model.tail_order!.indexOf(a[0]) - model.tail_order!.indexOf(b[0]));
  for (const [name, def, optIn] of tail) {
    const column = name === 'created' || name === 'last_updated' ? name : name === 'custom_fields' ? '_custom_field_data' : null;
    fields.push(resolveField(id, name, def, { common: true, column, opt_in: optIn }));
  }
  for (const [name, def] of declared.filter(([, d]) => d.after_tail)) fields.push(resolveField(id, name, def));
  if (model.head_order) moveToHead(id, fields, model.head_order);
  const fieldMap = new Map(fields.map((fld) => [fld.name, fld]));
  for (const key of [...model.natural_key, ...model.ordering.map(orderingField), ...(model.indexes ?? []).flat()]) {
    if (key !== 'pk' && !fieldMap.has(key)) throw new RegistryError(`${id}: natural key or ordering names unknown field "${key}"`);
  }
  for (const field of fields) {
    const source = field.naturalize && fieldMap.get(field.naturalize.from);
    if (field.naturalize && !(source?.column && source.behaviour.storage === 'text')) throw new RegistryError(`${id}.${field.name}: naturalize names "${field.naturalize.from}", not a stored text field`);
  }
  return Object.freeze({
    id,
    app: model.app,
    model: model.model,
    table: `${model.app}_${model.model}`,
    path: model.path,
    verbose_name: model.verbose_name,
    verbose_name_plural: model.verbose_name_plural,
    doc: model.doc,
    description: model.description ?? '',
    features,
    tree: model.tree ?? false,
    fields: Object.freeze(fields),
    fieldMap,
    columns: Object.freeze(fields.filter((fld) => fld.column !== null)),
    natural_key: Object.freeze([...model.natural_key]),
    unique_together: Object.freeze((model.unique_together ?? []).map((u) => Object.freeze([...u]))),
    indexes: Object.freeze((model.indexes ?? []).map((i) => Object.freeze([...i]))),
    ordering: Object.freeze([...model.ordering]),
    display: model.display,
    display_needs: Object.freeze([...(model.display_needs ?? [])]),
    search: resolveSearch(model),
    rules: Object.freeze([...(model.rules ?? [])]),
    read_only: model.read_only ?? false,
    internal: model.internal ?? false,
    id_type: model.id_type ?? 'uuid',
    creatable: model.creatable ?? true,
    before_save: model.before_save,
    unique_messages: Object.freeze({ ...(model.unique_messages ?? {}) }),
    class_name: model.class_name ?? toClassName(model.verbose_name),
    change_related: resolveChangeRelated(id, model.change_related, fieldMap),
  });
}
