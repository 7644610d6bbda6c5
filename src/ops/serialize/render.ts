import { isImageField } from '../../core/registry/image-fields.js';
import { mediaUrl } from '../../core/media/paths.js';
import { renderRowId } from '../../core/registry/row-id.js';
import type { ResolvedField, ResolvedModel, Row } from '../../core/registry/types.js';
import type { Services } from '../services.js';
import type { Loaded, SerializeOptions } from './plan.js';

/** Absolute detail URL of an object. */
export function objectUrl(baseUrl: string, model: ResolvedModel, id: string): string {
  return `${baseUrl}/api/${model.app}/${model.path}/${id}/`;
}

/**
 * How one shown field turns a row into its value. An emitter depends on the model, the field and
 * the rendering's shape (see `shapeOf`), never on one rendering: it is made once and reads what
 * was loaded, and the options, from the state it is given.
 */
export type Emit = (state: RenderState, row: Row, depth: number) => unknown;

/** A shown field of a model in one rendering: its key and its emitter. */
type FieldPlan = { name: string; emit: Emit };

/**
 * One rendering: what was loaded, the options, the field plans per model, and the nested
 * objects already rendered (a related object shared by many rows is rendered once and the same
 * object is placed in each; nothing downstream mutates rendered objects).
 */
export type RenderState = { services: Services; loaded: Loaded; opts: SerializeOptions; plans: Map<ResolvedModel, FieldPlan[]>[]; nested: Map<string, Record<string, unknown>>; nestedSet?: WeakSet<object> };

/** Empty value of an overridable common field when its loader gave nothing for a row. */
function computedDefault(name: string): () => unknown {
  return ['custom_fields', 'relationships', 'computed_fields', 'config_context'].includes(name) ? () => ({}) : () => null;
}

/**
 * A related object: rendered in full while depth remains, else the brief `{id, object_type, url}`
 * (at the top level and at the edge of a nested object alike, as the reference sends it).
 */
function renderRef(state: RenderState, target: ResolvedModel, id: unknown, depth: number): unknown {
  if (typeof id !== 'string') return null;
  if (depth > 0) {
    const row = state.loaded.loader.get(target.id, id);
    if (row) return renderNested(state, target, row, depth - 1);
  }
  return { id: renderRowId(target, id), object_type: target.id, url: objectUrl(state.opts.baseUrl, target, id) };
}

function renderGeneric(state: RenderState, field: ResolvedField, row: Row, depth: number, top: boolean) {
  const target = state.services.registry.find(String(row[`${field.name}_type`] ?? ''));
  const id = row[`${field.name}_id`];
  if (!target || typeof id !== 'string') return null;
  // Objects rendered in full had their generic targets loaded (a dangling one renders null); at
  // the edge of a nested object the target is not loaded, so its brief object is rendered from
  // the type and id columns, as for an FK.
  if ((top || depth > 0) && !state.loaded.loader.get(target.id, id)) return null;
  const out = renderRef(state, target, id, depth);
  return out && typeof out === 'object' && depth > 0 ? { ...(out as object), generic_foreign_key: true } : out;
}

/** Emitters of the fields every model shares (identity, display, URLs, custom data); undefined for the others. */
export function commonEmitter(model: ResolvedModel, field: ResolvedField): Emit | undefined {
  switch (field.name) {
    case 'id': return (_state, row) => renderRowId(model, row.id);
    case 'object_type': return () => model.id;
    case 'display': return (state, row) => state.loaded.loader.display(model, row);
    case 'url': return (state, row) => objectUrl(state.opts.baseUrl, model, row.id);
    case 'natural_slug': return (state, row) => state.loaded.loader.naturalSlug(model, row);
    case 'notes_url': return field.common ? (state, row) => `${objectUrl(state.opts.baseUrl, model, row.id)}notes/` : undefined;
    case 'custom_fields': return field.common ? (_state, row) => row._custom_field_data ?? {} : undefined;
    case 'relationships': case 'computed_fields': return field.opt_in ? () => ({}) : undefined;
    default: return undefined;
  }
}

/** Emitters by relation and kind: references, to-many lists, counts, tree depth, stored values. */
function valueEmitter(registry: Services['registry'], model: ResolvedModel, field: ResolvedField, top: boolean): Emit {
  const key = `${model.id}.${field.name}`;
  const relation = field.behaviour.relation;
  const column = field.column as string;
  if (relation === 'fk') {
    const target = registry.get(field.to as string);
    return (state, row, depth) => renderRef(state, target, row[column], depth);
  }
  if (relation === 'generic') return (state, row, depth) => renderGeneric(state, field, row, depth, top);
  if (relation === 'content_types') return (state, row) => state.loaded.links.get(key)?.get(row.id) ?? [];
  if (relation === 'm2m') {
    const target = registry.get(field.to as string);
    return (state, row, depth) => (state.loaded.links.get(key)?.get(row.id) ?? []).map((id) => renderRef(state, target, id, depth));
  }
  if (field.kind === 'count') return (state, row) => state.loaded.counts.get(key)?.get(row.id) ?? 0;
  if (field.kind === 'tree_depth') return (state, row) => state.loaded.loader.ancestors(model, row).length;
  if (!field.column) return () => null;
  // A stored image renders as the absolute URL it is served at, as the reference's ImageField.
  if (isImageField(field)) return (state, row) => (row[column] ? mediaUrl(state.opts.baseUrl, String(row[column])) : null);
  const render = field.behaviour.render;
  return (_state, row) => {
    const value = row[column];
    return value === null || value === undefined ? null : render(value, field);
  };
}

/** The emitter of a field an extension computes: its loaded value, or the field's empty value. */
export function computedEmitter(model: ResolvedModel, field: ResolvedField): Emit {
  const key = `${model.id}.${field.name}`;
  const fallback = field.kind === 'computed' ? () => null : computedDefault(field.name);
  return (state, row) => state.loaded.computed.get(key)?.get(row.id) ?? fallback();
}

/** The emitter of one shown field: an extension's computed value first, then the common fields, then by kind. */
export function emitterFor(registry: Services['registry'], model: ResolvedModel, field: ResolvedField, computed: boolean, top: boolean): Emit {
  if (computed) return computedEmitter(model, field);
  if (field.kind === 'computed') return () => null;
  return commonEmitter(model, field) ?? valueEmitter(registry, model, field, top);
}

/** Whether a field appears in this rendering (nested objects drop derived and opt-in keys, and to-many ones not declared `nested`). */
export function isShown(state: RenderState, field: ResolvedField, top: boolean): boolean {
  if (field.write_only || field.hidden) return false;
  if (field.opt_in) return top && !!state.opts.include?.has(field.opt_in);
  const relation = field.behaviour.relation;
  const toMany = relation === 'm2m' || relation === 'content_types';
  if (toMany && (state.opts.excludeM2m || !(top || field.nested))) return false;
  if (field.behaviour.derived && !top) return false;
  if (field.kind === 'count' && state.opts.omitCounts) return false;
  if (field.top_level_only && !top) return false;
  return true;
}

/** Per model, `${model.id}.${field}` of each field: the key of what an extension computed for it. */
const computedKeys = new WeakMap<ResolvedModel, string[]>();

/**
 * The shape of a model's rendering, a letter per field (`-` not shown, `c` computed by an
 * extension, `v` the field's own value) after `t`/`n` for the top or nested level: renderings of
 * one shape show the same keys, each made the same way, so what is built for one serves them all.
 */
export function shapeOf(state: RenderState, model: ResolvedModel, top: boolean): string {
  let keys = computedKeys.get(model);
  if (!keys) computedKeys.set(model, (keys = model.fields.map((field) => `${model.id}.${field.name}`)));
  const { computed } = state.loaded;
  let shape = top ? 't' : 'n';
  for (let i = 0; i < keys.length; i += 1) shape += !isShown(state, model.fields[i], top) ? '-' : computed.has(keys[i]) ? 'c' : 'v';
  return shape;
}

/** Shapes cached per model, past which the cache starts over (a key may hold a request's base URL). */
const CACHED_SHAPES = 256;

/** What `make` builds for a model's shape `key`, built once and kept with the model. */
export function perShape<T>(cache: WeakMap<ResolvedModel, Map<string, T>>, model: ResolvedModel, key: string, make: () => T): T {
  let shapes = cache.get(model);
  if (!shapes) cache.set(model, (shapes = new Map()));
  let made = shapes.get(key);
  if (made === undefined) {
    if (shapes.size >= CACHED_SHAPES) shapes.clear();
    made = make();
    shapes.set(key, made);
  }
  return made;
}

/** The fields a shape shows, in the model's order, each with whether an extension computes it. */
export function shownFields(model: ResolvedModel, shape: string): [ResolvedField, boolean][] {
  const out: [ResolvedField, boolean][] = [];
  model.fields.forEach((field, i) => {
    if (shape[i + 1] !== '-') out.push([field, shape[i + 1] === 'c']);
  });
  return out;
}

const planCache = new WeakMap<ResolvedModel, Map<string, FieldPlan[]>>();

/** The fields a model shows at the top or nested in this rendering, made once per shape. */
function fieldPlans(state: RenderState, model: ResolvedModel, top: boolean): FieldPlan[] {
  const level = state.plans[top ? 1 : 0];
  let plans = level.get(model);
  if (!plans) {
    const shape = shapeOf(state, model, top);
    plans = perShape(planCache, model, shape, () => shownFields(model, shape).map(([field, computed]) => ({ name: field.name, emit: emitterFor(state.services.registry, model, field, computed, top) })));
    level.set(model, plans);
  }
  return plans;
}

/** A related object rendered in full below the top level, once per rendering. */
function renderNested(state: RenderState, model: ResolvedModel, row: Row, depth: number): Record<string, unknown> {
  const key = `${model.id} ${row.id} ${depth}`;
  let out = state.nested.get(key);
  if (!out) {
    out = renderObject(state, model, row, depth, false);
    state.nested.set(key, out);
    state.nestedSet?.add(out);
  }
  return out;
}

export function renderObject(state: RenderState, model: ResolvedModel, row: Row, depth: number, top: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const plan of fieldPlans(state, model, top)) out[plan.name] = plan.emit(state, row, depth);
  return out;
}

export function renderState(services: Services, loaded: Loaded, opts: SerializeOptions, trackNested = false): RenderState {
  return { services, loaded, opts, plans: [new Map(), new Map()], nested: new Map(), ...(trackNested ? { nestedSet: new WeakSet<object>() } : {}) };
}

export function renderRows(services: Services, loaded: Loaded, model: ResolvedModel, rows: Row[], opts: SerializeOptions) {
  const state = renderState(services, loaded, opts);
  return rows.map((row) => renderObject(state, model, row, opts.depth, true));
}
