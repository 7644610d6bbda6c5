import type { TestApp } from './app.js';

type Reply = Awaited<ReturnType<TestApp['call']>>;

/** The cookies a response sets, by name: value and attributes as sent. */
export function setCookies(res: { headers: Record<string, unknown> }): Map<string, { value: string; attrs: string[] }> {
  const raw = res.headers['set-cookie'];
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw.map(String) : [String(raw)];
  const out = new Map<string, { value: string; attrs: string[] }>();
  for (const line of list) {
    const [pair, ...attrs] = line.split(';').map((s) => s.trim());
    const at = pair.indexOf('=');
    out.set(pair.slice(0, at), { value: pair.slice(at + 1), attrs });
  }
  return out;
}

/** A browser stand-in over inject(): keeps cookies, sends forms with the CSRF token. */
export class Browser {
  readonly jar = new Map<string, string>();
  constructor(readonly t: TestApp) {}

  get csrf(): string {
    return this.jar.get('csrftoken') ?? '';
  }

  cookieHeader(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private keep(res: Reply): Reply {
    for (const [name, { value, attrs }] of setCookies(res)) {
      if (attrs.includes('Max-Age=0')) this.jar.delete(name);
      else this.jar.set(name, value);
    }
    return res;
  }

  async get(url: string, headers: Record<string, string> = {}): Promise<Reply> {
    return this.keep(await this.t.call('GET', url, undefined, { token: null, headers: { cookie: this.cookieHeader(), accept: 'text/html', ...headers } }));
  }

  /** POSTs a form (the CSRF field added unless `csrf: null`). */
  async form(url: string, fields: Record<string, string | string[]>, opts: { csrf?: string | null; headers?: Record<string, string> } = {}): Promise<Reply> {
    const body = new URLSearchParams();
    const csrf = opts.csrf === undefined ? this.csrf : opts.csrf;
    if (csrf !== null) body.append('csrfmiddlewaretoken', csrf);
    for (const [k, v] of Object.entries(fields)) for (const one of Array.isArray(v) ? v : [v]) body.append(k, one);
    return this.keep(await this.t.call('POST', url, body.toString(), { token: null, headers: { cookie: this.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded', ...(opts.headers ?? {}) } }));
  }

  /** A JSON request with the session cookie (and the CSRF header unless `csrf: null`). */
  async api(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown, opts: { csrf?: string | null } = {}): Promise<Reply> {
    const csrf = opts.csrf === undefined ? this.csrf : opts.csrf;
    const headers: Record<string, string> = { cookie: this.cookieHeader(), ...(csrf !== null && method !== 'GET' ? { 'x-csrftoken': csrf } : {}) };
    return this.keep(await this.t.call(method, url, body, { token: null, headers }));
  }

  /** Opens the login page, then logs in; returns the login POST's reply. */
  async login(username = 'admin', password = 'admin-pass', next?: string): Promise<Reply> {
    await this.get(`/login/${next ? `?next=${encodeURIComponent(next)}` : ''}`);
    return this.form('/login/', { username, password, ...(next ? { next } : {}) });
  }
}
