import type Database from 'better-sqlite3';

/**
 * Reads outside a transaction share one read transaction per turn of the event loop: one
 * callback (a request's bytes, a timer, a message) and the microtasks it leads to. The first read
 * begins it; it commits once the turn's microtasks are done, or at once before any statement
 * that is not a read (a writer's BEGIN IMMEDIATE, an autocommit write, a script). Each
 * implicit transaction costs SQLite a shared-memory lock and unlock and a file size check (7-11 µs
 * a statement here, against 0.1-5 µs for the statement itself inside a transaction): a location
 * detail's five reads (two generation pragmas, the row, its tags, its counts) took 70-100 µs alone
 * and 15-28 µs in one.
 *
 * Exact as before: a turn begins after the event that started it arrived, so its reads see every
 * commit that happened before that event; a later event is a later turn, with a new transaction.
 * What the turn's reads see is one state (they saw up to one commit apart before).
 */
export class ReadTurn {
  private open = false;
  /** A commit that failed (a statement of the connection still being iterated): the next read or write retries it first. */
  private stale = false;
  private readonly begin: Database.Statement;
  private readonly commit: Database.Statement;

  constructor(private readonly db: Database.Database) {
    this.begin = db.prepare('BEGIN');
    this.commit = db.prepare('COMMIT');
  }

  /** Before a read: the turn's transaction, unless a writer's transaction is open. */
  enter(): void {
    if (this.stale) this.leave();
    if (this.open || this.db.inTransaction) return;
    this.begin.run();
    this.open = true;
    // nextTick from a microtask runs once the microtask queue is empty: after the turn's last continuation.
    process.nextTick(() => queueMicrotask(() => process.nextTick(() => this.endOfTurn())));
  }

  /** Before anything but a read, and when the connection closes: the turn's transaction commits. */
  leave(): void {
    if (!this.open) return;
    if (this.db.open && this.db.inTransaction) this.commit.run();
    this.open = false;
    this.stale = false;
  }

  private endOfTurn(): void {
    try {
      this.leave();
    } catch {
      this.stale = true;
    }
  }
}
