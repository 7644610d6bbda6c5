import type { Dialect } from '../db/dialects/dialect.js';

/**
 * Whether this process queued a row since its runner last looked: the runner is woken after a
 * commit (or a publication) only then, instead of claiming after every write when nothing was
 * queued (an UPDATE and its commit per write, most of the background's cost of a write that
 * queues nothing). Set by every insert of queue rows, taken by the wake.
 *
 * No queued row is missed: on SQLite the process's one connection runs one transaction at a
 * time, so the commit after an insert is that insert's own, or the claim it wakes waits for the
 * connection until the inserting transaction ended; on PostgreSQL each insert also NOTIFYs the
 * queue channel, which wakes runners when it commits, whichever process made it. Rows of other
 * processes and due retries are found by the runner's own timers, as before.
 */
const queued = new WeakSet<Dialect>();

/** Notes that rows were inserted into the queue through `dialect` (committed or not yet). */
export function noteQueued(dialect: Dialect): void {
  queued.add(dialect);
}

/** Whether rows were noted since the last call (and forgets them). */
export function takeQueued(dialect: Dialect): boolean {
  return queued.delete(dialect);
}
