import v8 from 'node:v8';
import vm from 'node:vm';

let collect: (() => void) | undefined;

/**
 * A full garbage collection, for work that knows it just made a lot of garbage the young
 * generation could not take (long exports). V8 only offers `gc` behind a flag: it is switched
 * on for a fresh context once and the function kept.
 */
export function collectGarbage(): void {
  if (!collect) {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('typeof gc === "function" ? gc : undefined') as (() => void) | undefined;
    // Where the flag cannot be set (another runtime), collection is left to V8.
    collect = gc ?? (() => undefined);
  }
  collect();
}

/**
 * A full collection that also compacts the old generation, for a quiet moment (idle-collection.ts).
 * A plain full collection frees dead objects but leaves the pages they shared with live ones
 * committed: after the bench's phases V8 kept 104-107 MB for 58 MB live. V8 compacts on every
 * full collection while its `--compact-on-every-full-gc` flag is set, which it reads as each
 * collection starts; it is set for this one and cleared again.
 */
export function compactGarbage(): void {
  v8.setFlagsFromString('--compact-on-every-full-gc');
  try {
    collectGarbage();
  } finally {
    v8.setFlagsFromString('--no-compact-on-every-full-gc');
  }
}

/**
 * Bounds the JavaScript heap's growth between full collections (HEAP_GROWTH_PERCENT): V8's
 * `--heap-growing-percent`, which it reads at every full collection, so setting it once the
 * process runs acts from the next collection on, in every isolate of the process. 0 leaves V8's
 * own factor (up to 4 times the live heap, which let a 55 MB live heap commit 175-200 MB).
 */
export function limitHeapGrowth(percent: number): void {
  v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}
