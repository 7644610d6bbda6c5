import { loadForSerialization } from './plan.js';
import { reuseLoaded } from './preloaded.js';
import { renderRows } from './render.js';
import { renderJoined } from './render-text.js';
import type { Exec } from '../../db/store.js';
import type { ResolvedModel, Row } from '../../core/registry/types.js';
import type { Services } from '../services.js';
import type { Loaded, LinksAndCounts, SerializeOptions } from './plan.js';

export type { LinksAndCounts, SerializeOptions } from './plan.js';
export { readLinksAndCounts } from './plan.js';
export { objectUrl } from './render.js';

/**
 * Rows -> API objects at the requested depth, with a fixed number of queries (fewer for the rows
 * a write returns: what its change log loaded is reused, see preloaded.ts).
 */
export async function serialize(services: Services, exec: Exec, model: ResolvedModel, rows: Row[], opts: SerializeOptions) {
  return renderRows(services, await load(services, exec, model, rows, opts), model, rows, opts);
}

async function load(services: Services, exec: Exec, model: ResolvedModel, rows: Row[], opts: SerializeOptions, early?: LinksAndCounts): Promise<Loaded> {
  return (await reuseLoaded(services, exec, model, rows, opts)) ?? (await loadForSerialization(services, exec, model, rows, opts, early));
}

/** The list envelope around the rendered rows. */
export type PageEnvelope = { count: number; next: string | null; previous: string | null };

/** A list page as JSON bytes: the envelope and the rows rendered at `opts.depth` (JSON.stringify's text, without the objects). */
export function renderPage(services: Services, loaded: Loaded, model: ResolvedModel, rows: Row[], opts: SerializeOptions, envelope: PageEnvelope): Buffer {
  const head = `{"count":${JSON.stringify(envelope.count)},"next":${JSON.stringify(envelope.next)},"previous":${JSON.stringify(envelope.previous)},"results":[`;
  return renderJoined(services, loaded, model, rows, opts, head, ']}');
}

/**
 * Rows loaded and rendered as JSON bytes between `head` and `tail`, comma separated (`serialize`
 * then JSON.stringify, without the objects): a write's response, `[`...`]` for a list.
 */
export async function serializeJoined(services: Services, exec: Exec, model: ResolvedModel, rows: Row[], opts: SerializeOptions, head: string, tail: string): Promise<Buffer> {
  return renderJoined(services, await load(services, exec, model, rows, opts), model, rows, opts, head, tail);
}

/**
 * One row loaded and rendered as JSON bytes (as `serialize`, without the object); `early`: its
 * links and counts, read from its id while the row itself was read (`readLinksAndCounts`).
 */
export async function serializeOne(services: Services, exec: Exec, model: ResolvedModel, row: Row, opts: SerializeOptions, early?: LinksAndCounts): Promise<Buffer> {
  return renderJoined(services, await load(services, exec, model, [row], opts, early), model, [row], opts, '', '');
}

/** A list page as JSON bytes, its related data loaded first. */
export async function serializePage(services: Services, exec: Exec, model: ResolvedModel, rows: Row[], opts: SerializeOptions, envelope: PageEnvelope): Promise<Buffer> {
  return renderPage(services, await load(services, exec, model, rows, opts), model, rows, opts, envelope);
}
