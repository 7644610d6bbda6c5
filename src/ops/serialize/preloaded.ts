import { loadComputed } from './plan.js';
import type { Exec } from '../../db/store.js';
import type { ResolvedModel, Row } from '../../core/registry/types.js';
import type { Services } from '../services.js';
import type { Loaded, SerializeOptions } from './plan.js';

/** What a write loaded to render its rows' change records: the loads and the options they served. */
type Preloaded = { loaded: Loaded; opts: SerializeOptions };

const PRELOADED = Symbol('preloaded');

/**
 * Marks a write's returned rows with what its change log loaded for them, in the write's
 * transaction (related rows, links, counts, display texts), so the response that follows renders
 * them without loading it all again. The mark lives on that array only (not enumerable, gone
 * with the request); a copy or a slice of the rows loads afresh.
 */
export function keepLoaded(rows: Row[], loaded: Loaded, opts: SerializeOptions): Row[] {
  Object.defineProperty(rows, PRELOADED, { value: { loaded, opts } satisfies Preloaded, enumerable: false });
  return rows;
}

/** Whether loads made for `had` cover a rendering with `want`: no deeper, no counts or link targets it skipped. */
function covers(had: SerializeOptions, want: SerializeOptions): boolean {
  if (want.depth > had.depth || want.linkTargets) return false;
  if (had.omitCounts && !want.omitCounts) return false;
  return !had.excludeM2m || !!want.excludeM2m;
}

/** Whether a computed value (`${modelId}.${field}`) renders related objects, whose URLs carry the rendering's base. */
function holdsUrls(services: Services, key: string): boolean {
  const dot = key.lastIndexOf('.');
  return !!services.registry.find(key.slice(0, dot))?.fieldMap.get(key.slice(dot + 1))?.behaviour.relation;
}

/** Whether a computed value (`${modelId}.${field}`) is the same whatever the rendering's `include`: its field is not opt-in. */
function independentOfInclude(services: Services, key: string): boolean {
  const dot = key.lastIndexOf('.');
  return !services.registry.find(key.slice(0, dot))?.fieldMap.get(key.slice(dot + 1))?.opt_in;
}

/**
 * The loads kept on `rows` by their write, when they cover `opts`: related rows, links and counts
 * are reused, and so are computed values of fields that are not opt-in (custom fields, IPAM
 * texts). Opt-in ones (relationships, computed fields, config contexts) depend on the options'
 * `include` and run again for these rows. Undefined when nothing was kept.
 */
export async function reuseLoaded(services: Services, exec: Exec, model: ResolvedModel, rows: Row[], opts: SerializeOptions): Promise<Loaded | undefined> {
  const kept = (rows as Row[] & { [PRELOADED]?: Preloaded })[PRELOADED];
  if (!kept || !covers(kept.opts, opts)) return undefined;
  // Computed values of related-object fields hold URLs (NAT lists): kept only for the same base
  // (change records render without one, as the reference's, so their base differs from a response's).
  const same = kept.opts.baseUrl === opts.baseUrl;
  const computed = new Map([...kept.loaded.computed].filter(([key]) => (same || !holdsUrls(services, key)) && independentOfInclude(services, key)));
  const loaded: Loaded = { ...kept.loaded, computed };
  await loadComputed(services, exec, [[model, rows]], opts, loaded);
  return loaded;
}
