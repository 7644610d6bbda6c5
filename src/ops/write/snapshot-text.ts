import { SnapshotSplitter } from '../../core/json-text.js';
import { emitterFor, perShape, renderState, shapeOf, shownFields } from '../serialize/render.js';
import type { JsonText, PartRefs } from '../../core/json-text.js';
import type { ResolvedModel, Row } from '../../core/registry/types.js';
import type { Services } from '../services.js';
import type { Emit, RenderState } from '../serialize/render.js';
import type { Loaded, SerializeOptions } from '../serialize/plan.js';

/** A shown top-level field of a snapshot: its name, its key's text (`"name":`) and its emitter. */
type SnapshotField = { name: string; key: string; emit: Emit };

/** One row's snapshot: its own text, where its parts were, and the values the change record also reads. */
export type SnapshotText = { text: JsonText; parts: PartRefs | null; display: unknown; tags: unknown };

const fieldCache = new WeakMap<ResolvedModel, Map<string, SnapshotField[]>>();

/** A value's JSON text as JSON.stringify writes it as a member (undefined: the key is left out). */
function valueText(value: unknown): string | undefined {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return JSON.stringify(value);
}

/**
 * Writes each row's depth-1 snapshot as text straight from the field emitters, its related
 * objects rendered in full left out as parts (null in their place, named in `parts`): the text,
 * parts and ids `SnapshotSplitter.split` gives for the rendered object, without building the
 * row's object first or walking it again (issue 22: fewer objects per record, less to collect).
 * Related objects are rendered once per write by the shared render state, as before.
 */
export function snapshotWriter(services: Services, loaded: Loaded, model: ResolvedModel, opts: SerializeOptions, splitter: SnapshotSplitter): (row: Row) => SnapshotText {
  const state: RenderState = renderState(services, loaded, opts, true);
  const nested = state.nestedSet as WeakSet<object>;
  const shape = shapeOf(state, model, true);
  const fields = perShape(fieldCache, model, shape, () => shownFields(model, shape).map(([field, computed]) => ({
    name: field.name, key: `${JSON.stringify(field.name)}:`, emit: emitterFor(services.registry, model, field, computed, true),
  })));
  const partOf = (value: unknown) => (value !== null && typeof value === 'object' && !Array.isArray(value) && nested.has(value) ? splitter.partOf(value) : undefined);
  return (row) => {
    let text = '';
    let parts: PartRefs | null = null;
    let display: unknown;
    let tags: unknown;
    for (let i = 0; i < fields.length; i += 1) {
      const { name, key, emit } = fields[i];
      const value = emit(state, row, opts.depth);
      if (name === 'display') display = value;
      else if (name === 'tags') tags = value;
      let member: string | undefined;
      const part = partOf(value);
      if (part !== undefined) {
        (parts ??= {})[name] = part;
        member = 'null';
      } else if (Array.isArray(value) && value.some((m) => partOf(m) !== undefined)) {
        const ids = value.map((m) => partOf(m) ?? null);
        (parts ??= {})[name] = ids;
        member = JSON.stringify(value.map((m, n) => (ids[n] === null ? m : null)));
      } else member = valueText(value);
      if (member !== undefined) text += `${text ? ',' : '{'}${key}${member}`;
    }
    return { text: SnapshotSplitter.document(text ? `${text}}` : '{}'), parts, display, tags };
  };
}
