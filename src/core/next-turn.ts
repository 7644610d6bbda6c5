/**
 * Resolves on a later turn of the event loop (after pending I/O): long work done batch by batch
 * awaits it between batches, so other requests are answered meanwhile. Awaiting statements is not
 * enough on SQLite, whose statements run on the event loop and resolve in microtasks.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
