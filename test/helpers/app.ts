import { buildApp } from '../../src/api/app.js';
import { loadConfig } from '../../src/core/config.js';
import { connect } from '../../src/db/connect.js';
import { loadDefaults } from '../../src/db/load-defaults.js';
import { migrate } from '../../src/db/schema/migrate.js';
import { buildServices } from '../../src/ops/build-services.js';
import { cloneDatabase } from './pg-database.js';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { Config } from '../../src/core/config.js';

export const TOKEN = '0123456789abcdef0123456789abcdef01234567';

/** Which database the tests run on: SQLite in memory, or a fresh PostgreSQL database (helpers/pg-database.ts) when DATABASE_URL is set. */
export const DB_URL = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : 'sqlite::memory:';

/** Each app's statement count when its last request reached its handler. */
const handlerStart = new WeakMap<FastifyInstance, number>();

export type TestApp = {
  app: FastifyInstance;
  /** Sends a request with the superuser token (unless `token: null`), returns status, headers and parsed body. */
  call(method: InjectOptions['method'], url: string, body?: unknown, opts?: { token?: string | null; headers?: Record<string, string> }): Promise<{ status: number; headers: Record<string, unknown>; body: any; raw: string }>;
  close(): Promise<void>;
};

/** Migrates the database of `url` and loads the default objects (the PostgreSQL template of test databases). */
export async function prepareDatabase(url: string): Promise<void> {
  const dialect = connect(url);
  try {
    const { registry, store } = buildServices(loadConfig({ DATABASE_URL: url }), dialect);
    await migrate(dialect, registry);
    await loadDefaults(dialect, store, registry);
  } finally {
    await dialect.close();
  }
}

/**
 * A fresh database and app per test file, with a superuser token. `overrides.databaseUrl` names
 * another SQLite database (a file other threads can open, for jobs) when the tests run on SQLite.
 */
export async function makeApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const database = DB_URL.startsWith('postgres') ? await cloneDatabase(DB_URL, prepareDatabase) : undefined;
  const url = database?.url ?? overrides.databaseUrl ?? DB_URL;
  const config = loadConfig({ DATABASE_URL: url, SUPERUSER_NAME: 'admin', SUPERUSER_PASSWORD: 'admin-pass', SUPERUSER_API_TOKEN: TOKEN }, { ...overrides, databaseUrl: url });
  // No scheduler looking for due jobs in the background of tests (statement counts stay exact); scheduler tests fire it themselves.
  if (!overrides.jobs) config.jobs = { ...config.jobs, schedulerMs: 0 };
  const dialect = connect(url);
  const app = await buildApp({ config, dialect });
  // Statements counted from the handler on (after authentication), for countStatements.
  app.addHook('preHandler', async () => {
    handlerStart.set(app, dialect.queryCount());
  });
  return {
    app,
    async call(method, url, body, opts = {}) {
      const token = opts.token === undefined ? TOKEN : opts.token;
      const headers: Record<string, string> = { ...(token ? { authorization: `Token ${token}` } : {}), ...(opts.headers ?? {}) };
      if (body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
      const res = await app.inject({ method, url, headers, payload: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
      let parsed: unknown = undefined;
      try { parsed = res.body ? JSON.parse(res.body) : undefined; } catch { parsed = undefined; }
      return { status: res.statusCode, headers: res.headers, body: parsed, raw: res.body };
    },
    async close() {
      await app.close();
      database?.drop();
    },
  };
}

/** Creates objects through the API and returns them; fails loudly on any non-201. */
export async function create(t: TestApp, path: string, body: unknown): Promise<any> {
  const res = await t.call('POST', path, body);
  if (res.status !== 201) throw new Error(`POST ${path} -> ${res.status}: ${res.raw}`);
  return res.body;
}

/**
 * Runs `fn` with the app's write generation held at `generation`: on PostgreSQL other test files
 * move the real one at any moment, and with it what is kept per generation (token look-ups,
 * custom field keys).
 */
export async function withGeneration<T>(t: TestApp, generation: string, fn: () => Promise<T>): Promise<T> {
  // The generation as an SQL expression (PostgreSQL reads it beside the token row) is hidden too,
  // so every read of it goes through writeGeneration.
  const dialect = t.app.services.dialect as { writeGeneration: () => Promise<string | null>; generationSql?: unknown };
  const { writeGeneration: real, generationSql } = dialect;
  dialect.writeGeneration = async () => generation;
  dialect.generationSql = undefined;
  try {
    return await fn();
  } finally {
    dialect.writeGeneration = real;
    dialect.generationSql = generationSql;
  }
}

let countingGeneration = 0;

/**
 * Statements one request's handler costs (a GET unless `request` says otherwise), rendered afresh
 * (the response cache bypassed); fails on any non-200. Authentication is left out, and so are the
 * reads kept per write generation (token look-ups, custom field keys, the GraphQL schema's
 * definitions): on PostgreSQL other test files move the generation at any moment, so they would
 * be paid by some requests and not others. The generation is held still for a first request,
 * which pays them, and the counted one.
 */
export async function countStatements(t: TestApp, url: string, request: { method?: InjectOptions['method']; body?: unknown } = {}): Promise<number> {
  return withGeneration(t, `counting-${(countingGeneration += 1)}`, async () => {
    const fresh = { headers: { 'cache-control': 'no-cache' } };
    const method = request.method ?? 'GET';
    await t.call(method, url, request.body, fresh);
    const res = await t.call(method, url, request.body, fresh);
    if (res.status !== 200) throw new Error(`${method} ${url} -> ${res.status}: ${res.raw}`);
    return t.app.services.dialect.queryCount() - (handlerStart.get(t.app) as number);
  });
}

/** One key of every result of a list GET, sorted (a filter's answer, whatever the order); fails on any non-200. */
export async function listed(t: TestApp, url: string, key = 'name'): Promise<string[]> {
  const res = await t.call('GET', url);
  if (res.status !== 200) throw new Error(`${url}: ${res.raw}`);
  return res.body.results.map((r: Record<string, string>) => r[key]).sort();
}
