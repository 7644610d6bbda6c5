import { emitterFor, perShape, renderState, shapeOf, shownFields } from '../serialize/render.js';
import type { JsonText, PartRefs, SnapshotSplitter } from '../../core/json-text.js';
import type { ResolvedModel, Row } from '../../core/registry/types.js';
import type { Services } from '../services.js';
import type { Emit, RenderState } from '../serialize/render.js';
import type { Loaded, SerializeOptions } from '../serialize/plan.js';

/** A shown top-level field of a snapshot: its name, its key's text (`"name":`) and its emitter. */
type SnapshotField = { name: string; key: string; emit: Emit };

/** One row's snapshot: its own text, where its parts were, and the values the change record also reads. */
export type SnapshotText = { text: JsonText; parts: PartRefs | null; display: unknown; tags: unknown };

const fieldCache = new WeakMap<ResolvedModel, Map<string, SnapshotField[]>>();

/**
 * Writes each row's depth-1 snapshot as text straight from the field emitters, its related
 * objects rendered in full left out as parts (the splitter's `member`), without building the
 * row's object first or walking it again (issue 22: fewer objects per record, less to collect).
 * Related objects are rendered once per write by the shared render state.
 */
export function snapshotWriter(services: Services, loaded: Loaded, model: ResolvedModel, opts: SerializeOptions, splitter: SnapshotSplitter): (row: Row) => SnapshotText {
  const state: RenderState = renderState(services, loaded, opts, true);
  const nested = state.nestedSet as WeakSet<object>;
  const isPart = (value: object) => nested.has(value);
  const shape = shapeOf(state, model, true);
  const fields = perShape(fieldCache, model, shape, () => shownFields(model, shape).map(([field, computed]) => ({
    name: field.name, key: `${JSON.stringify(field.name)}:`, emit: emitterFor(services.registry, model, field, computed, true),
  })));
  return (row) => {
    let text = '';
    let display: unknown;
    let tags: unknown;
    for (let i = 0; i < fields.length; i += 1) {
      const { name, key, emit } = fields[i];
      const value = emit(state, row, opts.depth);
      if (name === 'display') display = value;
      else if (name === 'tags') tags = value;
      const member = splitter.member(name, value, isPart);
      if (member !== undefined) text += `${text ? ',' : '{'}${key}${member}`;
    }
    return { ...splitter.finish(text ? `${text}}` : '{}'), display, tags };
  };
}
