/**
 * Where a rendering writes its JSON text (issue 22): short pieces are gathered into a string and
 * written into one reused byte buffer in runs (each UTF-8 encoding call has a fixed cost), and a
 * span written earlier can be written again by copying its bytes: a related object that recurs
 * on a page is encoded once. Rendering is synchronous, so one scratch buffer serves every call.
 */
const INITIAL = 256 * 1024;
/** A scratch grown past this for one very large body is let go afterwards, not kept for ever. */
const KEPT = 8 * 1024 * 1024;

/** The share of the buffer a body fills from which it is handed out instead of copied. */
const HANDED_OUT = 0.75;

/** Thrown when a body grows past the limit its `reset` was given (the body is then dropped). */
export class TextSinkFull extends Error {
  constructor(readonly limit: number) {
    super(`body larger than ${limit} bytes`);
  }
}

export class TextSink {
  private buf = Buffer.allocUnsafe(INITIAL);
  private used = 0;
  private pending = '';
  private limit = Infinity;

  /**
   * Starts a new body of at most `limit` bytes (what an unfinished one held is dropped, and a
   * buffer it grew past KEPT let go).
   */
  reset(limit = Infinity): void {
    this.used = 0;
    this.pending = '';
    this.limit = limit;
    if (this.buf.length > KEPT) this.buf = Buffer.allocUnsafe(INITIAL);
  }

  add(text: string): void {
    this.pending += text;
  }

  /** Writes what was gathered into the buffer. */
  flush(): void {
    if (this.pending === '') return;
    this.room(this.pending.length * 3);
    this.used += this.buf.write(this.pending, this.used);
    this.pending = '';
    if (this.used > this.limit) throw new TextSinkFull(this.limit);
  }

  /** The byte offset the next piece goes to (everything gathered written first). */
  mark(): number {
    this.flush();
    return this.used;
  }

  /** Writes bytes [start, end) of this body again. */
  repeat(start: number, end: number): void {
    this.flush();
    this.room(end - start);
    this.buf.copyWithin(this.used, start, end);
    this.used += end - start;
    if (this.used > this.limit) throw new TextSinkFull(this.limit);
  }

  /**
   * The body's bytes; the sink is empty again. A body filling most of the buffer is handed out
   * as it lies and a new buffer taken: copying it out (hundreds of kB for a page at depth 1)
   * measured dearer than writing the next body into fresh memory. A smaller body is copied, so
   * what a body keeps alive (in the response cache too) is never more than a third over its size.
   */
  take(): Buffer {
    this.flush();
    const used = this.used;
    this.used = 0;
    if (used >= this.buf.length * HANDED_OUT) {
      const out = this.buf.subarray(0, used);
      this.buf = Buffer.allocUnsafe(used > KEPT ? INITIAL : this.buf.length);
      return out;
    }
    const out = Buffer.allocUnsafe(used);
    this.buf.copy(out, 0, 0, used);
    if (this.buf.length > KEPT) this.buf = Buffer.allocUnsafe(INITIAL);
    return out;
  }

  private room(bytes: number): void {
    if (this.buf.length - this.used >= bytes) return;
    // Past the limit whatever the text's bytes are (an estimate can be three times them).
    if (this.used + bytes / 3 > this.limit) throw new TextSinkFull(this.limit);
    let size = this.buf.length * 2;
    while (size < this.used + bytes) size *= 2;
    const bigger = Buffer.allocUnsafe(size);
    this.buf.copy(bigger, 0, 0, this.used);
    this.buf = bigger;
  }
}
