import { renderRowId } from '../../core/registry/row-id.js';
import { commonEmitter, emitterFor, isShown, objectUrl, renderState } from './render.js';
import type { ResolvedField, ResolvedModel, Row } from '../../core/registry/types.js';
import type { Services } from '../services.js';
import type { Loaded, SerializeOptions } from './plan.js';
import type { RenderState } from './render.js';

/**
 * Rows rendered straight to JSON text (issue 22): the text `JSON.stringify(renderObject(...))`
 * gives, without the objects. Keys and the brief objects' constant parts are written once per
 * rendering; a nested object's text is made once and repeated wherever it recurs. Scalars go
 * through the object renderer's emitters and `JSON.stringify`, so every value is the same.
 */

/** One shown field's text: undefined leaves the key out (as JSON.stringify does an undefined value). */
type TextEmit = (row: Row, depth: number) => string | undefined;

/** A shown field: its `"name":` text and its emitter. */
type TextPlan = { key: string; emit: TextEmit };

type TextState = {
  base: RenderState;
  plans: Map<string, TextPlan[]>;
  /** Nested objects' texts by `${model} ${id} ${depth}`. */
  nested: Map<string, string>;
  /** Per target model: the brief object's text of an id. */
  briefs: Map<ResolvedModel, (id: string) => string>;
};

/** Characters an id may hold to be written into JSON text as it is (UUIDs, integers). */
const PLAIN = /^[\w.:-]*$/;

/** `text` as it stands inside a JSON string literal. */
function inString(text: string): string {
  return PLAIN.test(text) ? text : JSON.stringify(text).slice(1, -1);
}

/** `{"id":…,"object_type":…,"url":…}` of a related object not rendered in full, its constant parts made once per model. */
function briefOf(state: TextState, target: ResolvedModel): (id: string) => string {
  let brief = state.briefs.get(target);
  if (!brief) {
    const middle = `,"object_type":${JSON.stringify(target.id)},"url":"${inString(objectUrl(state.base.opts.baseUrl, target, '')).slice(0, -1)}`;
    brief = (id) => `{"id":${JSON.stringify(renderRowId(target, id))}${middle}${inString(id)}/"}`;
    state.briefs.set(target, brief);
  }
  return brief;
}

/** A related object's text: in full while depth remains (and its row is loaded), else brief. */
function refText(state: TextState, target: ResolvedModel, id: unknown, depth: number): string {
  if (typeof id !== 'string') return 'null';
  if (depth > 0) {
    const row = state.base.loaded.loader.get(target.id, id);
    if (row) return nestedText(state, target, row, depth - 1);
  }
  return briefOf(state, target)(id);
}

/** A generic relation's text, as `renderGeneric` renders it. */
function genericText(state: TextState, field: ResolvedField, row: Row, depth: number, top: boolean): string {
  const target = state.base.services.registry.find(String(row[`${field.name}_type`] ?? ''));
  const id = row[`${field.name}_id`];
  if (!target || typeof id !== 'string') return 'null';
  if ((top || depth > 0) && !state.base.loaded.loader.get(target.id, id)) return 'null';
  const text = refText(state, target, id, depth);
  if (depth <= 0) return text;
  return `${text.length > 2 ? `${text.slice(0, -1)},` : '{'}"generic_foreign_key":true}`;
}

/** The text emitter of a relation field (references, to-many lists); undefined for the others. */
function relationEmitter(state: TextState, model: ResolvedModel, field: ResolvedField, top: boolean): TextEmit | undefined {
  const { registry } = state.base.services;
  const relation = field.behaviour.relation;
  if (relation === 'fk') {
    const target = registry.get(field.to as string);
    const column = field.column as string;
    return (row, depth) => refText(state, target, row[column], depth);
  }
  if (relation === 'generic') return (row, depth) => genericText(state, field, row, depth, top);
  if (relation === 'm2m') {
    const target = registry.get(field.to as string);
    const links = state.base.loaded.links.get(`${model.id}.${field.name}`);
    return (row, depth) => {
      const ids = links?.get(row.id);
      if (!ids || ids.length === 0) return '[]';
      let out = '[';
      for (let i = 0; i < ids.length; i += 1) out += (i > 0 ? ',' : '') + refText(state, target, ids[i], depth);
      return `${out}]`;
    };
  }
  return undefined;
}

/** Text emitters of the URL fields (constant prefixes); undefined for the others. */
function urlEmitter(state: TextState, model: ResolvedModel, field: ResolvedField): TextEmit | undefined {
  const prefix = `"${inString(objectUrl(state.base.opts.baseUrl, model, '')).slice(0, -1)}`;
  if (field.name === 'url') return (row) => `${prefix}${inString(row.id)}/"`;
  if (field.name === 'notes_url' && field.common) return (row) => `${prefix}${inString(row.id)}/notes/"`;
  return undefined;
}

/** The text emitter of one shown field, in the object renderer's order of precedence. */
function textEmitter(state: TextState, model: ResolvedModel, field: ResolvedField, top: boolean): TextEmit {
  const plain = !state.base.loaded.computed.has(`${model.id}.${field.name}`) && field.kind !== 'computed';
  const common = plain ? commonEmitter(state.base, model, field) : undefined;
  const special = plain && (common ? urlEmitter(state, model, field) : relationEmitter(state, model, field, top));
  if (special) return special;
  const emit = common ?? emitterFor(state.base, model, field, top);
  return (row, depth) => JSON.stringify(emit(row, depth));
}

function textPlans(state: TextState, model: ResolvedModel, top: boolean): TextPlan[] {
  const id = `${model.id}|${top}`;
  let plans = state.plans.get(id);
  if (!plans) {
    plans = model.fields.filter((field) => isShown(state.base, field, top)).map((field) => ({ key: `${JSON.stringify(field.name)}:`, emit: textEmitter(state, model, field, top) }));
    state.plans.set(id, plans);
  }
  return plans;
}

function objectText(state: TextState, model: ResolvedModel, row: Row, depth: number, top: boolean): string {
  let out = '';
  for (const plan of textPlans(state, model, top)) {
    const value = plan.emit(row, depth);
    if (value !== undefined) out += (out === '' ? '{' : ',') + plan.key + value;
  }
  return out === '' ? '{}' : `${out}}`;
}

function nestedText(state: TextState, model: ResolvedModel, row: Row, depth: number): string {
  const key = `${model.id} ${row.id} ${depth}`;
  let text = state.nested.get(key);
  if (text === undefined) {
    text = objectText(state, model, row, depth, false);
    state.nested.set(key, text);
  }
  return text;
}

/** Each row's JSON text at `opts.depth`: `JSON.stringify(renderRows(...)[i])`. */
export function renderRowTexts(services: Services, loaded: Loaded, model: ResolvedModel, rows: Row[], opts: SerializeOptions): string[] {
  const state: TextState = { base: renderState(services, loaded, opts), plans: new Map(), nested: new Map(), briefs: new Map() };
  return rows.map((row) => objectText(state, model, row, opts.depth, true));
}
