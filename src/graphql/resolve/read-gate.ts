import type { NodeBudget } from './context.js';

/** Reads of one query under way at once, at most (PostgreSQL sends them together). */
const MAX_IN_FLIGHT = 4;

/**
 * Admits the list reads of one GraphQL query (found by probing faults: one query of thousands of
 * aliased lists froze the service). A read starts with the most rows it may bring: what it
 * wants when that fits in the node budget beside the reads under way, else (and for a read of no
 * fixed size) the room left plus one, one more showing that the budget would be passed, once no
 * other read holds room. So reads started together never bring more rows between them than the
 * budget allows. At most MAX_IN_FLIGHT run at once; the others wait in order, and each is let in
 * on a later turn of the event loop, so the service answers other requests between them (on
 * SQLite statements run on the event loop). Once the query has ended (`ended()` gives its error)
 * no waiting read starts.
 */
export class ReadGate {
  /** Rows the reads under way may still bring (their caps), beside the budget's `used`. */
  private reserved = 0;
  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly budget: NodeBudget, private readonly ended: () => Error | null) {}

  /** Runs `read` once admitted, with the most rows it may bring (see the class). */
  async run<T>(want: number | null, read: (cap: number) => Promise<T>): Promise<T> {
    const cap = await this.admit(want);
    try {
      return await read(cap);
    } finally {
      this.reserved -= cap;
      this.inFlight -= 1;
      // The next in line, on a later turn (never in this one's microtasks: on SQLite each read ends
      // before the next is let in, so a chain of them would hold the event loop to the end); the
      // rows just read are spent by then, before the next read is sized.
      if (this.waiting.length > 0) setImmediate(() => this.wakeNext());
    }
  }

  private async admit(want: number | null): Promise<number> {
    let woken = false;
    for (;;) {
      const ended = this.ended();
      if (ended) {
        this.wakeNext();
        throw ended;
      }
      const cap = this.inFlight < MAX_IN_FLIGHT ? this.capFor(want) : null;
      if (cap !== null) {
        this.reserved += cap;
        this.inFlight += 1;
        return cap;
      }
      // Back at the head of the line when it was woken and still does not fit.
      await new Promise<void>((resolve) => (woken ? this.waiting.unshift(resolve) : this.waiting.push(resolve)));
      woken = true;
    }
  }

  private capFor(want: number | null): number | null {
    const free = this.budget.max - this.budget.used - this.reserved;
    if (want !== null && want <= free) return want;
    return this.reserved === 0 ? Math.min(want ?? Number.MAX_SAFE_INTEGER, Math.max(0, free) + 1) : null;
  }

  private wakeNext(): void {
    this.waiting.shift()?.();
  }
}
