import { SharedReads } from '../../src/db/dialects/postgres-shared-reads.js';

/**
 * Runs `fn` and counts the batches of shared reads it begins: on PostgreSQL, its round trips
 * (statements sent together share one; see postgres-shared-reads.ts). Zero on SQLite.
 */
export async function countBatches<T>(fn: () => Promise<T>): Promise<{ result: T; batches: number }> {
  const proto = SharedReads.prototype as unknown as { start(this: SharedReads): unknown };
  const start = proto.start;
  let batches = 0;
  proto.start = function (this: SharedReads) {
    batches += 1;
    return start.call(this);
  };
  try {
    return { result: await fn(), batches };
  } finally {
    proto.start = start;
  }
}
