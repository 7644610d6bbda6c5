import v8 from 'node:v8';
import { collectGarbage } from '../../core/gc.js';
import type { FastifyInstance } from 'fastify';

/** Heap growth since the last collection that makes a quiet moment worth one (bytes). */
const GROWTH = 16 * 1024 * 1024;

/** One state per process, whatever the number of apps in it (tests build many). */
const state = { apps: 0, quietMs: 0, lastActivity: 0, baseline: 0, collections: 0, timer: undefined as NodeJS.Timeout | undefined };

const heapBytes = () => v8.getHeapStatistics().total_heap_size;

function check(): void {
  if (Date.now() - state.lastActivity < state.quietMs || heapBytes() < state.baseline + GROWTH) return;
  collectGarbage();
  state.collections += 1;
  state.baseline = heapBytes();
}

/** Full collections run so far by quiet moments in this process (tests). */
export function idleCollections(): number {
  return state.collections;
}

/**
 * Gives memory back after a burst of work (IDLE_GC_MS): once no request has started or ended for
 * `quietMs` and the V8 heap has grown by more than 16 MB since the last such collection, one full
 * garbage collection runs, and V8 returns the pages it frees to the system. Under steady load it
 * never runs (V8 collects as usual); it costs one full collection (tens of ms for the service's
 * heap) per quiet moment that follows heavy work. `quietMs` 0 turns it off.
 */
export function registerIdleCollection(app: FastifyInstance, quietMs: number): void {
  if (quietMs <= 0) return;
  const touch = (_req: unknown, _reply: unknown, done: () => void) => {
    state.lastActivity = Date.now();
    done();
  };
  app.addHook('onRequest', touch);
  app.addHook('onResponse', touch);
  state.apps += 1;
  state.quietMs = quietMs;
  if (!state.timer) {
    state.baseline = heapBytes();
    state.timer = setInterval(check, Math.max(100, Math.floor(quietMs / 2)));
    state.timer.unref();
  }
  app.addHook('onClose', async () => {
    state.apps -= 1;
    if (state.apps === 0 && state.timer) {
      clearInterval(state.timer);
      state.timer = undefined;
    }
  });
}
