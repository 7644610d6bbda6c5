/** A small client for the service's REST API over HTTP (fetch keeps connections alive). */
export type ApiResponse<T = any> = { status: number; body: T; raw: string; headers: Headers; ms: number };

export class ApiError extends Error {
  constructor(readonly method: string, readonly path: string, readonly status: number, readonly raw: string) {
    super(`${method} ${path} -> ${status}: ${summarize(raw).slice(0, 800)}`);
  }
}

/** A bulk request's per-item errors without the empty entries of the items that passed: `[26] {...}`. */
function summarize(raw: string): string {
  try {
    const body = JSON.parse(raw);
    if (!Array.isArray(body)) return raw;
    const failed = body.map((e, i) => [i, e] as const).filter(([, e]) => e && typeof e === 'object' && Object.keys(e).length);
    return `${failed.length} of ${body.length} items refused: ${failed.slice(0, 3).map(([i, e]) => `[${i}] ${JSON.stringify(e)}`).join(' ')}`;
  } catch {
    return raw;
  }
}

export class ApiClient {
  constructor(readonly baseUrl: string, readonly token: string) {}

  /** Any request; returns the status and body without judging them. */
  async request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> {
    const started = performance.now();
    const res = await fetch(this.baseUrl + path, {
      method,
      headers: { authorization: `Token ${this.token}`, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const raw = await res.text();
    const ms = performance.now() - started;
    let parsed: unknown = undefined;
    if (String(res.headers.get('content-type')).includes('json') && raw) parsed = JSON.parse(raw);
    return { status: res.status, body: parsed as T, raw, headers: res.headers, ms };
  }

  /** A request that must answer 2xx. */
  async ok<T = any>(method: string, path: string, body?: unknown): Promise<ApiResponse<T>> {
    const res = await this.request<T>(method, path, body);
    if (res.status < 200 || res.status > 299) throw new ApiError(method, path, res.status, res.raw);
    return res;
  }

  /** Every object of a list endpoint (pages of 1000). */
  async all<T = any>(path: string, query = ''): Promise<T[]> {
    const out: T[] = [];
    for (let offset = 0; ; offset += 1000) {
      const sep = path.includes('?') ? '&' : '?';
      const page = await this.ok<{ count: number; results: T[] }>('GET', `${path}${sep}limit=1000&offset=${offset}${query ? `&${query}` : ''}`);
      out.push(...page.body.results);
      if (page.body.results.length < 1000) return out;
    }
  }

  /** The `count` of a list endpoint. */
  async count(path: string, query = ''): Promise<number> {
    const res = await this.ok<{ count: number }>('GET', `${path}?limit=1${query ? `&${query}` : ''}`);
    return res.body.count;
  }

  /** Bulk create in batches; returns the created objects in input order. */
  async bulkCreate<T = any>(path: string, items: unknown[], opts: { batch?: number; onBatch?: (n: number) => void } = {}): Promise<T[]> {
    const batch = opts.batch ?? 500;
    const out: T[] = [];
    for (let i = 0; i < items.length; i += batch) {
      const chunk = items.slice(i, i + batch);
      const res = await this.ok<T[]>('POST', path, chunk);
      out.push(...res.body);
      opts.onBatch?.(chunk.length);
    }
    return out;
  }
}
