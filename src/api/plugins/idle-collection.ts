import v8 from 'node:v8';
import { compactGarbage } from '../../core/gc.js';
import type { FastifyInstance } from 'fastify';

/** Heap growth since the last quiet-moment collection that makes the next one worth it (bytes). */
const GROWTH = 16 * 1024 * 1024;

/**
 * One state per process, whatever the number of apps in it (tests build many): requests in
 * flight, when the last one ended, the heap's used and committed bytes after the last
 * collection, and each app's way to
 * give its database connections' spare memory back.
 */
const state = {
  apps: 0, quietMs: 0, inFlight: 0, lastActivity: 0, used: 0, committed: 0, collections: 0,
  releasers: new Set<() => void>(),
  timer: undefined as NodeJS.Timeout | undefined,
};

function worthCollecting(): boolean {
  if (state.inFlight > 0 || Date.now() - state.lastActivity < state.quietMs) return false;
  // Used growth: garbage (or live data) promoted to the old generation; committed growth: V8
  // took more room, which a collection of its own may have left half empty. The young
  // generation's garbage alone (8 MB at most with scripts/start.sh) never reaches the threshold.
  const heap = v8.getHeapStatistics();
  return heap.used_heap_size > state.used + GROWTH || heap.total_heap_size > state.committed + GROWTH;
}

function remember(): void {
  const heap = v8.getHeapStatistics();
  state.used = heap.used_heap_size;
  state.committed = heap.total_heap_size;
}

function check(): void {
  if (!worthCollecting()) return;
  compactGarbage();
  for (const release of state.releasers) release();
  state.collections += 1;
  remember();
}

/** Collections run so far by quiet moments in this process (tests). */
export function idleCollections(): number {
  return state.collections;
}

function track(app: FastifyInstance): void {
  app.addHook('onRequest', (_req, reply, done) => {
    state.inFlight += 1;
    state.lastActivity = Date.now();
    // 'close' comes whether the response was sent or the client went away.
    reply.raw.once('close', () => {
      state.inFlight -= 1;
      state.lastActivity = Date.now();
    });
    done();
  });
}

/**
 * Gives memory back after a burst of work (IDLE_GC_MS): once no request has been in flight for
 * `quietMs` and the V8 heap's used or committed size has grown by more than 16 MB since the last
 * such collection, one full garbage collection that compacts the old generation runs (V8 returns
 * the pages it empties; core/gc.ts `compactGarbage`) and each
 * app's `releaseMemory` runs (SQLite: the page cache's unused pages, `PRAGMA shrink_memory`).
 * Under load it never runs (V8 collects as usual). It costs one
 * full collection (tens of ms for the service's heap) per quiet moment that follows heavy work,
 * and the next requests read their pages again from the file. `quietMs` 0 turns it off.
 */
export function registerIdleCollection(app: FastifyInstance, quietMs: number, releaseMemory?: () => void): void {
  if (quietMs <= 0) return;
  track(app);
  state.apps += 1;
  state.quietMs = quietMs;
  if (releaseMemory) state.releasers.add(releaseMemory);
  if (!state.timer) {
    remember();
    state.timer = setInterval(check, Math.max(100, Math.floor(quietMs / 2)));
    state.timer.unref();
  }
  app.addHook('onClose', async () => {
    state.apps -= 1;
    if (releaseMemory) state.releasers.delete(releaseMemory);
    if (state.apps === 0 && state.timer) {
      clearInterval(state.timer);
      state.timer = undefined;
    }
  });
}
