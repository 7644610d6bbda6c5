import { renderRowId } from '../../core/registry/row-id.js';
import { BadRequestError } from '../../core/errors.js';
import { TextSink, TextSinkFull } from '../../core/text-sink.js';
import { commonEmitter, emitterFor, objectUrl, perShape, renderState, shapeOf, shownFields } from './render.js';
import type { ResolvedField, ResolvedModel, Row } from '../../core/registry/types.js';
import type { Services } from '../services.js';
import type { Loaded, SerializeOptions } from './plan.js';
import { compileRowWriter } from './row-writer.js';
import type { Emit, RenderState } from './render.js';

/**
 * Rows rendered straight to JSON bytes (issue 22): the text `JSON.stringify(renderObject(...))`
 * gives, without the objects. A model's row writer is generated once per shape (see `shapeOf`)
 * and base URL, from the registry's fields (row-writer.ts): keys, URL prefixes and the brief
 * objects' constant parts are made then, not per rendering. A nested object is encoded once per
 * rendering and its bytes copied wherever it recurs. Scalars go through the object renderer's
 * emitters and `JSON.stringify`, so every value is the same.
 */

/** One rendering's state: the object renderer's, the sink, the writers per model and the nested spans. */
export type TextState = {
  base: RenderState;
  sink: TextSink;
  /** The row writer per model, nested [0] and at the top [1], looked up once per rendering. */
  writers: Map<ResolvedModel, RowWriter>[];
  /** Byte spans of nested objects already written, per row, at `depth * 2 + (generic ? 1 : 0)`. */
  spans: Map<Row, [number, number]>[];
};

/** Writes one object; `extra` is a last key and value (`"name":value`) added inside it. */
export type RowWriter = (state: TextState, row: Row, depth: number, extra: string | undefined) => void;

/** A text known in full (a URL): never undefined. */
export type TextEmit = (state: TextState, row: Row) => string;

/** Writes a structured value (a relation) into the sink. */
export type Writer = (state: TextState, row: Row, depth: number) => void;

/** How one shown field is written: its value's JSON, a text, or a writer. */
export type Part = { key: string } & ({ json: Emit } | { text: TextEmit } | { write: Writer });

/** Characters an id may hold to be written into JSON text as it is (UUIDs, integers). */
const PLAIN = /^[\w.:-]*$/;

/** `text` as it stands inside a JSON string literal. */
function inString(text: string): string {
  return PLAIN.test(text) ? text : JSON.stringify(text).slice(1, -1);
}

/** `{"id":…,"object_type":…,"url":…}` of a related object not rendered in full, its constant parts made once. */
function briefOf(target: ResolvedModel, baseUrl: string): (id: string) => string {
  const middle = `,"object_type":${JSON.stringify(target.id)},"url":"${inString(objectUrl(baseUrl, target, '')).slice(0, -1)}`;
  return (id) => `{"id":${JSON.stringify(renderRowId(target, id))}${middle}${inString(id)}/"}`;
}

/** Writes a related object: in full while depth remains (and its row is loaded), else brief. */
function writeRef(state: TextState, target: ResolvedModel, brief: (id: string) => string, id: unknown, depth: number, generic: boolean): void {
  if (typeof id !== 'string') return state.sink.add('null');
  if (depth > 0) {
    const row = state.base.loaded.loader.get(target.id, id);
    if (row) return writeNested(state, target, row, depth - 1, generic);
  }
  state.sink.add(brief(id));
}

/** A generic relation, as `renderGeneric` renders it (a nested target gains `generic_foreign_key: true`). */
function genericWriter(registry: Services['registry'], field: ResolvedField, baseUrl: string, top: boolean): Writer {
  const briefs = new Map<ResolvedModel, (id: string) => string>();
  const typeColumn = `${field.name}_type`;
  const idColumn = `${field.name}_id`;
  return (state, row, depth) => {
    const target = registry.find(String(row[typeColumn] ?? ''));
    const id = row[idColumn];
    if (!target || typeof id !== 'string') return state.sink.add('null');
    if ((top || depth > 0) && !state.base.loaded.loader.get(target.id, id)) return state.sink.add('null');
    let brief = briefs.get(target);
    if (!brief) briefs.set(target, (brief = briefOf(target, baseUrl)));
    writeRef(state, target, brief, id, depth, true);
  };
}

/** The writer of a relation field (references, to-many lists); undefined for the others. */
function relationWriter(registry: Services['registry'], model: ResolvedModel, field: ResolvedField, baseUrl: string, top: boolean): Writer | undefined {
  const relation = field.behaviour.relation;
  if (relation === 'generic') return genericWriter(registry, field, baseUrl, top);
  if (relation !== 'fk' && relation !== 'm2m') return undefined;
  const target = registry.get(field.to as string);
  const brief = briefOf(target, baseUrl);
  if (relation === 'fk') {
    const column = field.column as string;
    return (state, row, depth) => writeRef(state, target, brief, row[column], depth, false);
  }
  const key = `${model.id}.${field.name}`;
  return (state, row, depth) => {
    const ids = state.base.loaded.links.get(key)?.get(row.id) ?? [];
    state.sink.add('[');
    for (let i = 0; i < ids.length; i += 1) {
      if (i > 0) state.sink.add(',');
      writeRef(state, target, brief, ids[i], depth, false);
    }
    state.sink.add(']');
  };
}

/** Texts of the URL fields (constant prefixes); undefined for the others. */
function urlText(model: ResolvedModel, field: ResolvedField, baseUrl: string): TextEmit | undefined {
  const prefix = `"${inString(objectUrl(baseUrl, model, '')).slice(0, -1)}`;
  if (field.name === 'url') return (_state, row) => `${prefix}${inString(row.id)}/"`;
  if (field.name === 'notes_url' && field.common) return (_state, row) => `${prefix}${inString(row.id)}/notes/"`;
  return undefined;
}

/** The part of one shown field, in the object renderer's order of precedence. */
function partOf(registry: Services['registry'], model: ResolvedModel, field: ResolvedField, computed: boolean, baseUrl: string, top: boolean): Part {
  const key = `${JSON.stringify(field.name)}:`;
  const plain = !computed && field.kind !== 'computed';
  const text = plain && commonEmitter(model, field) ? urlText(model, field, baseUrl) : undefined;
  if (text) return { key, text };
  const write = plain && !commonEmitter(model, field) ? relationWriter(registry, model, field, baseUrl, top) : undefined;
  if (write) return { key, write };
  return { key, json: emitterFor(registry, model, field, computed, top) };
}

const writerCache = new WeakMap<ResolvedModel, Map<string, RowWriter>>();

/** The row writer of `model` in this rendering, generated once per shape and base URL. */
function writerOf(state: TextState, model: ResolvedModel, top: boolean): RowWriter {
  const level = state.writers[top ? 1 : 0];
  let writer = level.get(model);
  if (!writer) {
    const shape = shapeOf(state.base, model, top);
    const { baseUrl } = state.base.opts;
    const { registry } = state.base.services;
    writer = perShape(writerCache, model, `${shape} ${baseUrl}`, () =>
      compileRowWriter(shownFields(model, shape).map(([field, computed]) => partOf(registry, model, field, computed, baseUrl, top))));
    level.set(model, writer);
  }
  return writer;
}

/** A related object rendered in full below the top level: written once, its bytes copied where it recurs. */
function writeNested(state: TextState, model: ResolvedModel, row: Row, depth: number, generic: boolean): void {
  const slot = depth * 2 + (generic ? 1 : 0);
  const spans = (state.spans[slot] ??= new Map());
  const span = spans.get(row);
  if (span) return state.sink.repeat(span[0], span[1]);
  const start = state.sink.mark();
  writerOf(state, model, false)(state, row, depth, generic ? '"generic_foreign_key":true' : undefined);
  spans.set(row, [start, state.sink.mark()]);
}

/** Rendering is synchronous: one sink (and its buffer) serves every rendering. */
const SINK = new TextSink();

/**
 * The rows' JSON texts at `opts.depth`, separated by commas, between `head` and `tail`, as bytes.
 * With nested objects (depth above 0: reads only) the body may hold at most MAX_RESPONSE_MB: a
 * page of 1 000 interfaces at depth 10 grew past 4 GB, blocking the service for 21 s before it
 * failed. Past the limit it is a 400 saying so.
 */
export function renderJoined(services: Services, loaded: Loaded, model: ResolvedModel, rows: Row[], opts: SerializeOptions, head: string, tail: string): Buffer {
  const state: TextState = { base: renderState(services, loaded, opts), sink: SINK, writers: [new Map(), new Map()], spans: [] };
  const write = writerOf(state, model, true);
  const maxMb = services.config.limits.responseMb;
  SINK.reset(opts.depth > 0 && maxMb > 0 ? maxMb * 1024 * 1024 : Infinity);
  try {
    SINK.add(head);
    for (let i = 0; i < rows.length; i += 1) {
      if (i > 0) SINK.add(',');
      write(state, rows[i], opts.depth, undefined);
      SINK.flush();
    }
    SINK.add(tail);
    return SINK.take();
  } catch (err) {
    if (!(err instanceof TextSinkFull)) throw err;
    SINK.reset();
    throw new BadRequestError(`The response would be larger than ${maxMb} MB (MAX_RESPONSE_MB); ask for a smaller depth or limit.`);
  }
}
