/**
 * Fills a running service with one object per contract fixture (its setup, then `make(1)`), so
 * that the reference comparison tool (`../shared/tools/wire-check`) has an object of every model
 * to compare keys with. Fixtures share names (`fx-site`, `fx-maker`, ...): a create that the
 * service refuses is answered with the existing object of the same fields when there is one.
 *
 * Usage: node --import tsx test/contract/seed-server.ts http://127.0.0.1:18090 TOKEN [app.]
 */
import { FIXTURES } from './fixtures.js';
import type { TestApp } from '../helpers/app.js';

type Reply = { status: number; headers: Record<string, unknown>; body: any; raw: string };

/** A TestApp over HTTP (only `call` is used by fixtures). */
function remote(base: string, token: string): TestApp {
  async function send(method: string, url: string, body?: unknown): Promise<Reply> {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: { authorization: `Token ${token}`, 'content-type': 'application/json', accept: 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const raw = await res.text();
    return { status: res.status, headers: Object.fromEntries(res.headers), body: raw ? JSON.parse(raw) : undefined, raw };
  }
  /** The one object whose scalar fields equal those of `body`, if any. */
  async function existing(url: string, body: Record<string, unknown>): Promise<unknown> {
    const query = Object.entries(body).filter(([, v]) => ['string', 'number', 'boolean'].includes(typeof v)).map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`);
    const found = await send('GET', `${url}?${query.join('&')}`);
    return found.body?.count === 1 ? found.body.results[0] : undefined;
  }
  async function call(method: string, url: string, body?: unknown): Promise<Reply> {
    const res = await send(method, url, body);
    if (method !== 'POST' || res.status !== 400) return res;
    const items = Array.isArray(body) ? body : [body];
    const made = [];
    for (const item of items as Record<string, unknown>[]) {
      const one = await send('POST', url, item);
      const obj = one.status === 201 ? one.body : await existing(url, item);
      if (!obj) return one;
      made.push(obj);
    }
    return { status: 201, headers: {}, body: Array.isArray(body) ? made : made[0], raw: '' };
  }
  return { app: undefined as never, call: call as TestApp['call'], close: async () => {} };
}

async function main(): Promise<void> {
  const [base, token, only = ''] = process.argv.slice(2);
  const t = remote(base, token);
  for (const fx of FIXTURES.filter((f) => f.model.startsWith(only))) {
    try {
      const ctx = (await fx.setup?.(t)) ?? {};
      const res = await t.call('POST', fx.path, fx.make(1, ctx));
      console.log(`${res.status === 201 ? 'made' : `FAILED ${res.status} ${res.raw}`} ${fx.model}`);
    } catch (err) {
      console.log(`FAILED setup ${fx.model}: ${(err as Error).message}`);
    }
  }
}

await main();
