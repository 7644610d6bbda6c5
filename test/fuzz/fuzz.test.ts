import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { DB_URL, TOKEN, makeApp } from '../helpers/app.js';
import { buildWorld } from '../contract/search-world.js';
import { buildCatalog } from './catalog.js';
import { Random } from './random.js';
import { nextRequest } from './requests.js';
import type { TestApp } from '../helpers/app.js';
import type { Catalog } from './catalog.js';
import type { FuzzRequest } from './requests.js';

/**
 * Issue 17: a reproducible fuzz run over every model the API describes (OpenAPI filters, OPTIONS
 * fields, extra endpoints): wrong values for every field kind and filter lookup, malformed JSON
 * and CSV, bad ids in paths and references. It fails on any 5xx and on any request that takes
 * longer than the guard (a hang, not a timing target).
 *
 * FUZZ_REQUESTS (default 4000) sets the budget, FUZZ_SEED (default 17) the stream,
 * FUZZ_CONCURRENCY (default 4) how many requests are in flight at once, FUZZ_GUARD_MS (30000)
 * the guard, FUZZ_REPORT a file to write the failures to (one JSON line each). Locally:
 * `FUZZ_REQUESTS=50000 node --import tsx --test test/fuzz/fuzz.test.ts`.
 */
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 4000);
const SEED = Number(process.env.FUZZ_SEED ?? 17);
const CONCURRENCY = Number(process.env.FUZZ_CONCURRENCY ?? 4);
const GUARD_MS = Number(process.env.FUZZ_GUARD_MS ?? 30_000);

type Failure = { request: FuzzRequest; status: number | 'hang'; ms: number; response: string };

let t: TestApp;
let catalog: Catalog;
/** The cause of each 5xx by the request's `x-fuzz-id`, for the report (the 500 body hides it, rightly). */
const causes = new Map<string, string>();
let sequence = 0;

before(async () => {
  t = await makeApp();
  t.app.addHook('onError', async (req, _reply, err) => {
    const id = req.headers['x-fuzz-id'];
    if (typeof id === 'string') causes.set(id, String(err.stack ?? err).split('\n').slice(0, 4).join(' | '));
  });
  await buildWorld(t);
  catalog = await buildCatalog(t);
});
after(() => t.close());

/** Sends one request; a failure when it answers 5xx or not within the guard. */
async function send(request: FuzzRequest): Promise<{ status: number; failure?: Failure }> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<'hang'>((resolve) => { timer = setTimeout(() => resolve('hang'), GUARD_MS); });
  const id = String((sequence += 1));
  const answer = t.app.inject({ method: request.method as never, url: request.url, payload: request.body, headers: { authorization: `Token ${TOKEN}`, 'x-fuzz-id': id, ...request.headers } });
  const res = await Promise.race([answer, guard]).finally(() => clearTimeout(timer));
  const ms = Math.round(performance.now() - started);
  if (res === 'hang') return { status: 0, failure: { request, status: 'hang', ms, response: '' } };
  if (res.statusCode >= 500 || ms > GUARD_MS) return { status: res.statusCode, failure: { request, status: res.statusCode, ms, response: `${res.body.slice(0, 200)} cause: ${causes.get(id) ?? '?'}` } };
  return { status: res.statusCode };
}

function describeFailure(f: Failure): string {
  const body = f.request.body === undefined ? '' : ` body=${f.request.body.slice(0, 200)}`;
  return `${f.status} after ${f.ms} ms: ${f.request.method} ${f.request.url.slice(0, 300)} ${JSON.stringify(f.request.headers)}${body}\n    -> ${f.response}`;
}

describe(`fuzz (${DB_URL.startsWith('postgres') ? 'PostgreSQL' : 'SQLite'}, seed ${SEED}, ${REQUESTS} requests)`, () => {
  it('should answer every request below 500 and within the guard', { timeout: 60 * 60 * 1000 }, async (ctx) => {
    const random = new Random(SEED);
    const statuses = new Map<number, number>();
    const failures: Failure[] = [];
    const started = performance.now();
    for (let sent = 0; sent < REQUESTS; sent += CONCURRENCY) {
      const batch = Array.from({ length: Math.min(CONCURRENCY, REQUESTS - sent) }, () => nextRequest(random, catalog));
      for (const result of await Promise.all(batch.map(send))) {
        statuses.set(result.status, (statuses.get(result.status) ?? 0) + 1);
        if (result.failure) failures.push(result.failure);
      }
      if (failures.some((f) => f.status === 'hang')) break;
    }
    const health = await t.app.inject({ method: 'GET', url: '/health/' });
    ctx.diagnostic(`${REQUESTS} requests in ${Math.round((performance.now() - started) / 1000)} s; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`);
    if (process.env.FUZZ_REPORT) writeFileSync(process.env.FUZZ_REPORT, failures.map((f) => JSON.stringify(f)).join('\n'));
    assert.equal(health.statusCode, 200, 'the service still answers /health/');
    assert.equal(failures.length, 0, `${failures.length} requests failed:\n${failures.slice(0, 25).map(describeFailure).join('\n')}`);
  });
});
