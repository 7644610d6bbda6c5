import { renderRowId } from '../../core/registry/row-id.js';
import { TextSink } from '../../core/text-sink.js';
import { commonEmitter, emitterFor, isShown, objectUrl, renderState } from './render.js';
import type { ResolvedField, ResolvedModel, Row } from '../../core/registry/types.js';
import type { Services } from '../services.js';
import type { Loaded, SerializeOptions } from './plan.js';
import type { RenderState } from './render.js';

/**
 * Rows rendered straight to JSON bytes (issue 22): the text `JSON.stringify(renderObject(...))`
 * gives, without the objects. Keys and the brief objects' constant parts are made once per
 * rendering; a nested object is encoded once and its bytes copied wherever it recurs. Scalars go
 * through the object renderer's emitters and `JSON.stringify`, so every value is the same.
 */

/** A scalar field's text: undefined leaves the key out (as JSON.stringify does an undefined value). */
type TextEmit = (row: Row, depth: number) => string | undefined;

/** A shown field: its key text (`"name":`) and either its scalar text or a writer of its (structured) value. */
type TextPlan = { key: string; text?: TextEmit; write?: (row: Row, depth: number) => void };

type TextState = {
  base: RenderState;
  sink: TextSink;
  plans: Map<string, TextPlan[]>;
  /** Byte spans of nested objects already written, by depth and row (`generic`: with `generic_foreign_key`). */
  spans: Map<string, Map<Row, [number, number]>>;
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

/** Writes a related object: in full while depth remains (and its row is loaded), else brief. */
function writeRef(state: TextState, target: ResolvedModel, id: unknown, depth: number, generic = false): void {
  if (typeof id !== 'string') return state.sink.add('null');
  if (depth > 0) {
    const row = state.base.loaded.loader.get(target.id, id);
    if (row) return writeNested(state, target, row, depth - 1, generic);
  }
  state.sink.add(briefOf(state, target)(id));
}

/** A generic relation, as `renderGeneric` renders it (a nested target gains `generic_foreign_key: true`). */
function writeGeneric(state: TextState, field: ResolvedField, row: Row, depth: number, top: boolean): void {
  const target = state.base.services.registry.find(String(row[`${field.name}_type`] ?? ''));
  const id = row[`${field.name}_id`];
  if (!target || typeof id !== 'string') return state.sink.add('null');
  if ((top || depth > 0) && !state.base.loaded.loader.get(target.id, id)) return state.sink.add('null');
  writeRef(state, target, id, depth, true);
}

/** The writer of a relation field (references, to-many lists); undefined for the others. */
function relationWriter(state: TextState, model: ResolvedModel, field: ResolvedField, top: boolean): TextPlan['write'] {
  const { registry } = state.base.services;
  const relation = field.behaviour.relation;
  if (relation === 'fk') {
    const target = registry.get(field.to as string);
    const column = field.column as string;
    return (row, depth) => writeRef(state, target, row[column], depth);
  }
  if (relation === 'generic') return (row, depth) => writeGeneric(state, field, row, depth, top);
  if (relation === 'm2m') {
    const target = registry.get(field.to as string);
    const links = state.base.loaded.links.get(`${model.id}.${field.name}`);
    return (row, depth) => {
      const ids = links?.get(row.id) ?? [];
      state.sink.add('[');
      for (let i = 0; i < ids.length; i += 1) {
        if (i > 0) state.sink.add(',');
        writeRef(state, target, ids[i], depth);
      }
      state.sink.add(']');
    };
  }
  return undefined;
}

/** Texts of the URL fields (constant prefixes); undefined for the others. */
function urlText(state: TextState, model: ResolvedModel, field: ResolvedField): TextEmit | undefined {
  const prefix = `"${inString(objectUrl(state.base.opts.baseUrl, model, '')).slice(0, -1)}`;
  if (field.name === 'url') return (row) => `${prefix}${inString(row.id)}/"`;
  if (field.name === 'notes_url' && field.common) return (row) => `${prefix}${inString(row.id)}/notes/"`;
  return undefined;
}

/** The plan of one shown field, in the object renderer's order of precedence. */
function planOf(state: TextState, model: ResolvedModel, field: ResolvedField, top: boolean): TextPlan {
  const key = `${JSON.stringify(field.name)}:`;
  const plain = !state.base.loaded.computed.has(`${model.id}.${field.name}`) && field.kind !== 'computed';
  const common = plain ? commonEmitter(state.base, model, field) : undefined;
  if (common) return { key, text: urlText(state, model, field) ?? ((row, depth) => JSON.stringify(common(row, depth))) };
  const write = plain ? relationWriter(state, model, field, top) : undefined;
  if (write) return { key, write };
  const emit = emitterFor(state.base, model, field, top);
  return { key, text: (row, depth) => JSON.stringify(emit(row, depth)) };
}

function textPlans(state: TextState, model: ResolvedModel, top: boolean): TextPlan[] {
  const id = `${model.id}|${top}`;
  let plans = state.plans.get(id);
  if (!plans) {
    plans = model.fields.filter((field) => isShown(state.base, field, top)).map((field) => planOf(state, model, field, top));
    state.plans.set(id, plans);
  }
  return plans;
}

/** Writes one object; `extra` is a last key and value (`"name":value`) added inside it. */
function writeObject(state: TextState, model: ResolvedModel, row: Row, depth: number, top: boolean, extra?: string): void {
  const { sink } = state;
  let first = true;
  for (const plan of textPlans(state, model, top)) {
    if (plan.write) {
      sink.add(first ? `{${plan.key}` : `,${plan.key}`);
      plan.write(row, depth);
    } else {
      const value = (plan.text as TextEmit)(row, depth);
      if (value === undefined) continue;
      sink.add(first ? `{${plan.key}${value}` : `,${plan.key}${value}`);
    }
    first = false;
  }
  if (extra !== undefined) sink.add(first ? `{${extra}}` : `,${extra}}`);
  else sink.add(first ? '{}' : '}');
}

/** A related object rendered in full below the top level: written once, its bytes copied where it recurs. */
function writeNested(state: TextState, model: ResolvedModel, row: Row, depth: number, generic: boolean): void {
  const name = `${depth}${generic ? 'g' : ''}`;
  let spans = state.spans.get(name);
  if (!spans) state.spans.set(name, (spans = new Map()));
  const span = spans.get(row);
  if (span) return state.sink.repeat(span[0], span[1]);
  const start = state.sink.mark();
  writeObject(state, model, row, depth, false, generic ? '"generic_foreign_key":true' : undefined);
  spans.set(row, [start, state.sink.mark()]);
}

/** Rendering is synchronous: one sink (and its buffer) serves every rendering. */
const SINK = new TextSink();

/** The rows' JSON texts at `opts.depth`, separated by commas, between `head` and `tail`, as bytes. */
export function renderJoined(services: Services, loaded: Loaded, model: ResolvedModel, rows: Row[], opts: SerializeOptions, head: string, tail: string): Buffer {
  const state: TextState = { base: renderState(services, loaded, opts), sink: SINK, plans: new Map(), spans: new Map(), briefs: new Map() };
  SINK.reset();
  SINK.add(head);
  rows.forEach((row, i) => {
    if (i > 0) state.sink.add(',');
    writeObject(state, model, row, opts.depth, true);
    state.sink.flush();
  });
  state.sink.add(tail);
  return state.sink.take();
}
