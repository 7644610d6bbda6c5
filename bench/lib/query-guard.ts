import { BENCH_TOKEN } from './env.js';
import type { FastifyInstance } from 'fastify';

/** In-process figures describe a full render: the response cache is bypassed. */
export const FRESH = { 'cache-control': 'no-cache' } as const;

/** Each app's statement count when its last request reached its handler (see `trackHandlerStatements`). */
const handlerStart = new WeakMap<FastifyInstance, number>();

/**
 * Records the statement count when a request reaches its handler, so `countStatements` can
 * also give the handler's own statements (authentication left out). On PostgreSQL the token
 * look-up is kept per write generation, and that generation (`pg_current_snapshot()`) moves
 * with a commit in any database of the server: another project's test run there made the
 * guard's counts wobble by one at random. Call before the app is ready.
 */
export function trackHandlerStatements(app: FastifyInstance): void {
  app.addHook('preHandler', async () => { handlerStart.set(app, app.services.dialect.queryCount()); });
}

/** A scenario's request for inject(): a GET, or a POST of a JSON body (GraphQL). */
export function request(url: string, post?: string) {
  const headers = { ...FRESH, authorization: `Token ${BENCH_TOKEN}`, accept: 'application/json' };
  return post === undefined ? { method: 'GET' as const, url, headers } : { method: 'POST' as const, url, headers: { ...headers, 'content-type': 'application/json' }, payload: post };
}

/**
 * SQL statements one request costs, counted through the dialect's hook (in-process, inject()):
 * the whole request, and from the handler on (`handler`, the whole request when not tracked).
 */
export async function countStatements(app: FastifyInstance, url: string, post?: string): Promise<{ statements: number; handler: number; status: number; rows: number | null }> {
  const before = app.services.dialect.queryCount();
  handlerStart.delete(app);
  const res = await app.inject(request(url, post));
  const after = app.services.dialect.queryCount();
  const statements = after - before;
  const handler = after - (handlerStart.get(app) ?? before);
  let rows: number | null = null;
  try {
    const body = JSON.parse(res.body);
    if (Array.isArray(body?.results)) rows = body.results.length;
  } catch { /* not JSON */ }
  return { statements, handler, status: res.statusCode, rows };
}

/**
 * CPU milliseconds one request costs this process (user + system, every thread), through
 * inject(): the median of three batches of `times` after one warm-up, so that one collection or
 * checkpoint in a batch does not set the figure. Less sensitive than req/s to other work on the
 * machine; it includes SQLite's work but not a PostgreSQL server's.
 */
export async function cpuPerRequest(app: FastifyInstance, url: string, times = 20, post?: string): Promise<number> {
  await app.inject(request(url, post));
  const batches: number[] = [];
  for (let b = 0; b < 3; b += 1) {
    const before = process.cpuUsage();
    for (let i = 0; i < times; i += 1) await app.inject(request(url, post));
    const used = process.cpuUsage(before);
    batches.push((used.user + used.system) / 1000 / times);
  }
  return batches.sort((x, y) => x - y)[1];
}

export const GUARD_LIMITS = [10, 100, 500] as const;

export type GuardRow = {
  path: string;
  depth: number;
  /** Statements and rows per page size, keyed by limit. */
  statements: Record<number, number>;
  rows: Record<number, number>;
  verdict: 'ok' | 'FAIL' | 'n/a';
  note: string;
};

/** Extra statements a larger page may cost without being an N+1 (see `judge`). */
export const WAVE_TOLERANCE = 2;

/**
 * The statement count of a list page must not grow with its size (no N+1). Pages of 10, 100
 * and 500 rows are compared. Related objects load in waves (the page's relations, then theirs,
 * and tree ancestors one level per wave), and a wave skips what is loaded already, so the
 * count wobbles by a statement or two with the rows a page happens to hold: a relation absent
 * from the first rows, a deeper location among them (an interface page of 10 may hold no
 * cable or VLAN, one of 100 does). That is not growth. It fails when the 500-row page costs
 * more than WAVE_TOLERANCE statements over the 100-row one (five times the rows): a per-row
 * query adds 400, one per chunk of 100 rows four.
 */
export function judge(statements: Record<number, number>, rows: Record<number, number>): Pick<GuardRow, 'verdict' | 'note'> {
  const [s, m, l] = GUARD_LIMITS;
  const describe = (a: number, b: number) => `${statements[a]} statements for ${rows[a]} rows, ${statements[b]} for ${rows[b]}`;
  if (rows[l] > rows[m]) {
    if (statements[l] - statements[m] > WAVE_TOLERANCE) return { verdict: 'FAIL', note: `${describe(s, m)}, ${describe(m, l).replace(/^\d+ statements for \d+ rows, /, '')}` };
    const wobble = Math.max(statements[s], statements[m], statements[l]) - Math.min(statements[s], statements[m], statements[l]);
    return { verdict: 'ok', note: wobble ? `wobbles by ${wobble} (which relations the rows hold), does not grow` : '' };
  }
  if (rows[m] > rows[s]) {
    return statements[m] - statements[s] > WAVE_TOLERANCE
      ? { verdict: 'FAIL', note: describe(s, m) }
      : { verdict: 'ok', note: `only ${rows[m]} rows in the table` };
  }
  return { verdict: 'n/a', note: `only ${rows[s]} rows in the table` };
}

/**
 * The fewer statements of two counts of one page: a commit by another process between them (the
 * bench's service beats every 10 s, moving SQLite's `data_version`) makes the page re-read what
 * it keeps per write generation (custom field keys, tree chains), a few statements that are not
 * the page's own and once failed the guard at random (+3).
 */
async function steadiestCount(app: FastifyInstance, url: string): ReturnType<typeof countStatements> {
  const first = await countStatements(app, url);
  const second = await countStatements(app, url);
  return second.handler < first.handler ? second : first;
}

/**
 * Runs the guard over list endpoints at depth 0, 1 and 2 (each URL requested once before it is
 * counted), counting each page's statements from its handler on when the app tracks them.
 */
export async function runGuard(app: FastifyInstance, listPaths: string[]): Promise<GuardRow[]> {
  const out: GuardRow[] = [];
  for (const path of listPaths) {
    for (const depth of [0, 1, 2]) {
      const statements: Record<number, number> = {};
      const rows: Record<number, number> = {};
      for (const limit of GUARD_LIMITS) {
        const url = `${path}?limit=${limit}&depth=${depth}`;
        await countStatements(app, url);
        const c = await steadiestCount(app, url);
        if (c.status !== 200) throw new Error(`query guard: GET ${url} -> ${c.status}`);
        statements[limit] = c.handler;
        rows[limit] = c.rows ?? 0;
      }
      out.push({ path, depth, statements, rows, ...judge(statements, rows) });
    }
  }
  return out;
}
