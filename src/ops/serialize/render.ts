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

/** How one shown field turns a row into its value, chosen once per rendering (not per row). */
type Emit = (row: Row, depth: number) => unknown;

/** A shown field of a model in one rendering: its key and its emitter. */
type FieldPlan = { name: string; emit: Emit };

/**
 * One rendering: what was loaded, the options, the field plans per model, and the nested
 * objects already rendered (a related object shared by many rows is rendered once and the same
 * object is placed in each; nothing downstream mutates rendered objects).
 */
export type RenderState = { services: Services; loaded: Loaded; opts: SerializeOptions; plans: Map<string, FieldPlan[]>; nested: Map<string, Record<string, unknown>>; nestedSet?: WeakSet<object> };

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
export function commonEmitter(state: RenderState, model: ResolvedModel, field: ResolvedField): Emit | undefined {
  const { loader } = state.loaded;
  const { baseUrl } = state.opts;
  switch (field.name) {
    case 'id': return (row) => renderRowId(model, row.id);
    case 'object_type': return () => model.id;
    case 'display': return (row) => loader.display(model, row);
    case 'url': return (row) => objectUrl(baseUrl, model, row.id);
    case 'natural_slug': return (row) => loader.naturalSlug(model, row);
    case 'notes_url': return field.common ? (row) => `${objectUrl(baseUrl, model, row.id)}notes/` : undefined;
    case 'custom_fields': return field.common ? (row) => row._custom_field_data ?? {} : undefined;
    case 'relationships': case 'computed_fields': return field.opt_in ? () => ({}) : undefined;
    default: return undefined;
  }
}

/** Emitters by relation and kind: references, to-many lists, counts, tree depth, stored values. */
function valueEmitter(state: RenderState, model: ResolvedModel, field: ResolvedField, key: string, top: boolean): Emit {
  const { registry } = state.services;
  const { loaded } = state;
  const relation = field.behaviour.relation;
  const column = field.column as string;
  if (relation === 'fk') {
    const target = registry.get(field.to as string);
    return (row, depth) => renderRef(state, target, row[column], depth);
  }
  if (relation === 'generic') return (row, depth) => renderGeneric(state, field, row, depth, top);
  // Plans are made while rendering, after everything was loaded: the maps can be taken once.
  const links = loaded.links.get(key);
  if (relation === 'content_types') return (row) => links?.get(row.id) ?? [];
  if (relation === 'm2m') {
    const target = registry.get(field.to as string);
    return (row, depth) => (links?.get(row.id) ?? []).map((id) => renderRef(state, target, id, depth));
  }
  const counts = loaded.counts.get(key);
  if (field.kind === 'count') return (row) => counts?.get(row.id) ?? 0;
  if (field.kind === 'tree_depth') return (row) => loaded.loader.ancestors(model, row).length;
  if (!field.column) return () => null;
  // A stored image renders as the absolute URL it is served at, as the reference's ImageField.
  if (isImageField(field)) return (row) => (row[column] ? mediaUrl(state.opts.baseUrl, String(row[column])) : null);
  const render = field.behaviour.render;
  return (row) => {
    const value = row[column];
    return value === null || value === undefined ? null : render(value, field);
  };
}

/** The emitter of one shown field: an extension's computed value first, then the common fields, then by kind. */
export function emitterFor(state: RenderState, model: ResolvedModel, field: ResolvedField, top: boolean): Emit {
  const key = `${model.id}.${field.name}`;
  const computed = state.loaded.computed.get(key);
  if (computed) {
    const fallback = field.kind === 'computed' ? () => null : computedDefault(field.name);
    return (row) => computed.get(row.id) ?? fallback();
  }
  if (field.kind === 'computed') return () => null;
  return commonEmitter(state, model, field) ?? valueEmitter(state, model, field, key, top);
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

/** The fields a model shows at the top or nested in this rendering, worked out once per rendering. */
function fieldPlans(state: RenderState, model: ResolvedModel, top: boolean): FieldPlan[] {
  const id = `${model.id}|${top}`;
  let plans = state.plans.get(id);
  if (!plans) {
    plans = model.fields.filter((field) => isShown(state, field, top)).map((field) => ({ name: field.name, emit: emitterFor(state, model, field, top) }));
    state.plans.set(id, plans);
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
  for (const plan of fieldPlans(state, model, top)) out[plan.name] = plan.emit(row, depth);
  return out;
}

export function renderState(services: Services, loaded: Loaded, opts: SerializeOptions, trackNested = false): RenderState {
  return { services, loaded, opts, plans: new Map(), nested: new Map(), ...(trackNested ? { nestedSet: new WeakSet<object>() } : {}) };
}

/**
 * Renders rows of `model` one at a time, sharing field plans and nested objects across calls:
 * for a caller that uses each rendering and lets it go (the change log, a batch at a time).
 * `isNested` tells a related object rendered in full (one instance however many rows hold it).
 */
export function rowRenderer(services: Services, loaded: Loaded, model: ResolvedModel, opts: SerializeOptions): { render: (row: Row) => Record<string, unknown>; isNested: (value: object) => boolean } {
  const state = renderState(services, loaded, opts, true);
  return { render: (row) => renderObject(state, model, row, opts.depth, true), isNested: (value) => !!state.nestedSet?.has(value) };
}

export function renderRows(services: Services, loaded: Loaded, model: ResolvedModel, rows: Row[], opts: SerializeOptions) {
  const state = renderState(services, loaded, opts);
  return rows.map((row) => renderObject(state, model, row, opts.depth, true));
}
