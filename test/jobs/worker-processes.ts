import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../../src/api/app.js';
import { loadConfig } from '../../src/core/config.js';
import { connect } from '../../src/db/connect.js';
import { spawnWorker, stopProcess } from '../helpers/worker-process.js';
import type { ChildProcess } from 'node:child_process';
import type { FastifyInstance } from 'fastify';

/**
 * An app and `inventory worker` processes sharing one database: a fresh PostgreSQL database when
 * the tests run there (other processes cannot see a test schema), else a SQLite file.
 */
export type ProcessesApp = {
  app: FastifyInstance;
  call(method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown): Promise<{ status: number; body: any; raw: string }>;
  /** Starts an `inventory worker` on the database; resolves once it says it runs. */
  startWorker(env?: Record<string, string>): Promise<ChildProcess>;
  /** Stops every worker started (SIGTERM). */
  stopWorkers(): Promise<void>;
  close(): Promise<void>;
};

const PG = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;
const TOKEN = '0123456789abcdef0123456789abcdef01234567';

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Ends a worker (SIGTERM unless told otherwise) and resolves when it exited. */
export async function stopWorker(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  await stopProcess(child, signal);
}

export async function makeProcessesApp(opts: { root: string }): Promise<ProcessesApp> {
  const dir = mkdtempSync(path.join(tmpdir(), 'jobs-processes-'));
  const dbName = PG ? `jobs_proc_${randomBytes(5).toString('hex')}` : '';
  let dbUrl = `sqlite:${path.join(dir, 'db.sqlite3')}`;
  if (PG) {
    await admin(`CREATE DATABASE ${dbName}`);
    const url = new URL(PG);
    url.pathname = `/${dbName}`;
    dbUrl = url.toString();
  }
  const env = { DATABASE_URL: dbUrl, JOBS_ROOT: opts.root, GIT_ROOT: path.join(dir, 'git') };
  const config = loadConfig({ ...env, SUPERUSER_NAME: 'admin', SUPERUSER_PASSWORD: 'admin-pass', SUPERUSER_API_TOKEN: TOKEN, JOBS_SCHEDULER_MS: '0', QUEUE_EMBEDDED: 'false' });
  const app = await buildApp({ config, dialect: connect(dbUrl) });
  const workers: ChildProcess[] = [];
  return {
    app,
    async call(method, url, body) {
      const res = await app.inject({ method, url, headers: { authorization: `Token ${TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) }, payload: body ? JSON.stringify(body) : undefined });
      return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined, raw: res.body };
    },
    async startWorker(extra = {}) {
      const { child } = await spawnWorker({ ...env, ...extra });
      workers.push(child);
      return child;
    },
    async stopWorkers() {
      await Promise.all(workers.map((w) => stopWorker(w)));
    },
    async close() {
      await Promise.all(workers.map((w) => stopWorker(w)));
      await app.close();
      if (dbName) await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Polls `read` until `done` says yes (other processes' work cannot be awaited otherwise). */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let value = await read(); ; value = await read()) {
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
