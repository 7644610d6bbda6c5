import type { PathNode } from './endpoints.js';
import type { RequestContext } from '../../../ops/services.js';

/**
 * Work a request puts off while it deletes cable terminations (a device and its components),
 * done once they are gone: change records of the surviving ends of their cables (so an end
 * deleted in the same request keeps its one delete record, as the reference merges a request's
 * changes of one object) and the paths that ran over them, found while they still existed.
 */
export type Deferred = { ends: PathNode[]; origins: PathNode[] };

/** Request-scoped: keyed by the request's context object, never shared between requests. */
const pending = new WeakMap<RequestContext, Deferred>();

/** The request's deferred work, started if needed (before terminations are deleted). */
export function deferFor(rc: RequestContext): Deferred {
  const found = pending.get(rc) ?? { ends: [], origins: [] };
  pending.set(rc, found);
  return found;
}

/** The request's deferred work while terminations are being deleted, else undefined. */
export function pendingFor(rc: RequestContext): Deferred | undefined {
  return pending.get(rc);
}

/** Ends the deferral and hands over its work (after the terminations are deleted). */
export function takeDeferred(rc: RequestContext): Deferred | undefined {
  const found = pending.get(rc);
  pending.delete(rc);
  return found;
}
