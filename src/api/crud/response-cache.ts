import type { FastifyRequest } from 'fastify';
import type { Dialect } from '../../db/dialects/dialect.js';
import { baseUrl, requestGeneration } from '../request-context.js';

/** Whether the request asks for a body rendered afresh (`Cache-Control: no-cache` or `no-store`). */
function asksFresh(req: FastifyRequest): boolean {
  return /no-cache|no-store/i.test(String(req.headers['cache-control'] ?? ''));
}

/**
 * Rendered JSON bodies of generic list/detail GETs, valid until the database's write generation
 * moves (any committed or pending row change, on any connection). Keys name everything a body
 * depends on besides the data: the reader, the API version, the scheme and host (absolute URLs),
 * the Accept header and the full URL with its query. Bounded by bytes, least recently used first out.
 * A request with `Cache-Control: no-cache` (or `no-store`) is always rendered afresh.
 */
export class ResponseCache {
  private readonly entries = new Map<string, Buffer>();
  /** How many entries each URL (the key's last line) has, whoever read it, however it was asked. */
  private readonly urls = new Map<string, number>();
  private bytes = 0;
  private generation: string | null = null;
  /** Lookups answered from the cache, and lookups that had to render (for /metrics/). */
  readonly counts = { hits: 0, misses: 0 };

  constructor(private readonly dialect: Dialect, private readonly maxBytes: number) {}

  /** Whether a body may be shared for the request at all (known without reading the generation). */
  shareable(req: FastifyRequest): boolean {
    return this.maxBytes > 0 && !!req.actor && !asksFresh(req);
  }

  /**
   * Whether a body for the request's URL may be here (before its reader and the generation are
   * known: a guess, for work worth skipping when the body is sent from here).
   */
  mayHold(req: FastifyRequest): boolean {
    return this.maxBytes > 0 && this.urls.has(req.url) && !asksFresh(req);
  }

  /** The cache key for a request, or null when no body may be shared for it. */
  async keyFor(req: FastifyRequest): Promise<string | null> {
    if (!this.shareable(req) || !req.actor) return null;
    const generation = await requestGeneration(this.dialect, req);
    if (generation === null) return null;
    if (generation !== this.generation) this.clear(generation);
    return `${generation}\n${req.actor.id}\n${req.apiVersion}\n${baseUrl(req)}\n${req.headers.accept ?? ''}\n${req.url}`;
  }

  get(key: string | null): Buffer | undefined {
    if (key === null) return undefined;
    const body = this.entries.get(key);
    if (body !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, body);
      this.counts.hits += 1;
    } else this.counts.misses += 1;
    return body;
  }

  /**
   * Keeps `body` under its key's generation while that is still the cache's. Where reading the
   * generation is free (SQLite) the body is also dropped when the data moved while it was rendered
   * (it may mix two states then). Where it costs a statement (PostgreSQL: a round trip after every
   * rendering) it is not read again: the statements of one rendering see no common snapshot there
   * anyway, so a body rendered across a commit is what a request rendering it itself could get;
   * only requests that read the key's generation, so started before that commit was visible, are
   * served it, and the first request that reads the new generation empties the cache.
   */
  async set(key: string | null, body: Buffer): Promise<void> {
    if (key === null || body.length > this.maxBytes / 8) return;
    const now = this.dialect.freeGeneration ? await this.dialect.writeGeneration() : this.generation;
    if (now !== this.generation || !key.startsWith(`${now}\n`)) return;
    const replaced = this.entries.get(key);
    if (replaced !== undefined) this.bytes -= replaced.length;
    else this.countUrl(key, 1);
    this.entries.delete(key);
    this.entries.set(key, body);
    this.bytes += body.length;
    for (const [oldest, old] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.countUrl(oldest, -1);
      this.bytes -= old.length;
    }
  }

  /** Counts an entry of the key's URL in or out (a request's URL holds no line break, so it is the key's last line). */
  private countUrl(key: string, change: 1 | -1): void {
    const url = key.slice(key.lastIndexOf('\n') + 1);
    const n = (this.urls.get(url) ?? 0) + change;
    if (n > 0) this.urls.set(url, n);
    else this.urls.delete(url);
  }

  /** Bytes and entries held now. */
  size(): { bytes: number; entries: number } {
    return { bytes: this.bytes, entries: this.entries.size };
  }

  private clear(generation: string): void {
    this.entries.clear();
    this.urls.clear();
    this.bytes = 0;
    this.generation = generation;
  }
}
