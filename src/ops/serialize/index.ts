import { loadForSerialization } from './plan.js';
import { reuseLoaded } from './preloaded.js';
import { renderRows } from './render.js';
import type { Exec } from '../../db/store.js';
import type { ResolvedModel, Row } from '../../core/registry/types.js';
import type { Services } from '../services.js';
import type { SerializeOptions } from './plan.js';

export type { SerializeOptions } from './plan.js';
export { objectUrl } from './render.js';

/**
 * Rows -> API objects at the requested depth, with a fixed number of queries (fewer for the rows
 * a write returns: what its change log loaded is reused, see preloaded.ts).
 */
export async function serialize(services: Services, exec: Exec, model: ResolvedModel, rows: Row[], opts: SerializeOptions) {
  const loaded = (await reuseLoaded(services, exec, model, rows, opts)) ?? (await loadForSerialization(services, exec, model, rows, opts));
  return renderRows(services, loaded, model, rows, opts);
}
