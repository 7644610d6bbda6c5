import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DB_URL, TOKEN, prepareDatabase } from './app.js';
import { cloneDatabase } from './pg-database.js';

/** A real server process (`npm start`) on a fresh database of the kind the tests run on. */
export type Server = {
  base: string;
  /** fetch with the superuser token and JSON; returns status and parsed body. */
  call(method: string, url: string, body?: unknown): Promise<{ status: number; body: any }>;
  stop(): Promise<void>;
};

export async function waitForHealth(base: string, child: { exitCode: number | null }): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${base}/health/`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A fresh database: a new PostgreSQL database (a copy of the migrated template), or a SQLite file in a temporary folder. */
export async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  if (!DB_URL.startsWith('postgres')) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'netsot-server-'));
    return { url: `sqlite:${path.join(dir, 'db.sqlite3')}`, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  }
  const db = await cloneDatabase(DB_URL, prepareDatabase);
  return { url: db.url, drop: async () => db.drop() };
}

/**
 * Starts `src/server.ts` (through tsx; `build/server.js` with `fromBuild`; `sh scripts/start.sh`,
 * as `npm start`, with `startScript`) with `workers` processes; `env` adds settings.
 */
export async function startServer(opts: { workers: number; env?: Record<string, string>; fromBuild?: boolean; startScript?: boolean }): Promise<Server & { pid: number }> {
  const db = await freshDatabase();
  const port = 20000 + Math.floor(Math.random() * 20000);
  const base = `http://127.0.0.1:${port}`;
  const [file, args] = opts.startScript ? ['sh', ['scripts/start.sh']] : [process.execPath, opts.fromBuild ? ['build/server.js'] : ['--import', 'tsx', 'src/server.ts']];
  const child = spawn(file, args, {
    env: { ...process.env, DATABASE_URL: db.url, PORT: String(port), HOST: '127.0.0.1', WORKERS: String(opts.workers), LOG_LEVEL: 'warn', SUPERUSER_NAME: 'admin', SUPERUSER_API_TOKEN: TOKEN, ...opts.env },
    stdio: 'ignore',
    detached: true,
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
    await exited;
    await db.drop();
  };
  try {
    await waitForHealth(base, child);
  } catch (err) {
    await stop();
    throw err;
  }
  const headers = { authorization: `Token ${TOKEN}`, 'content-type': 'application/json', accept: 'application/json' };
  return {
    base,
    pid: child.pid!,
    stop,
    async call(method, url, body) {
      const res = await fetch(`${base}${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      let parsed: unknown;
      try { parsed = text ? JSON.parse(text) : undefined; } catch { parsed = text; }
      return { status: res.status, body: parsed };
    },
  };
}
