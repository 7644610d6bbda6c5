import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/**
 * PostgreSQL databases for tests. Migrating an empty database (hundreds of tables and indexes)
 * costs seconds per test app; a copy of an already migrated one (CREATE DATABASE ... TEMPLATE)
 * costs a fraction of that. So a template is migrated once per version of `src/` (its name
 * carries a hash of the sources: any change builds a new one) and every test database is a copy
 * of it. The app still runs its migrations on the copy at start (nothing left to do there), so a
 * copy is what a fresh database would be after them.
 *
 * Test databases commit without waiting for the WAL flush (`synchronous_commit = off`: nothing
 * here survives a server crash anyway), and are dropped by a detached process: DROP DATABASE
 * forces a checkpoint on PostgreSQL 15, seconds on a busy server, which no test needs to wait for.
 */

const SRC = fileURLToPath(new URL('../../src', import.meta.url));
const DROPPER = fileURLToPath(new URL('./drop-database.mjs', import.meta.url));
/** Templates unused by this version of the sources are dropped once older than this. */
const TEMPLATE_KEEP_MS = 2 * 3600_000;
const TEMPLATE_PREFIX = 'netsot_tpl_';

let memo: string | undefined;

/** A hash of every file under src/ (names and contents), once per process. */
function sourceKey(): string {
  if (memo) return memo;
  const hash = createHash('sha1');
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else hash.update(path.relative(SRC, full)).update('\0').update(fs.readFileSync(full)).update('\0');
    }
  };
  walk(SRC);
  return (memo = hash.digest('hex').slice(0, 16));
}

/** `serverUrl` with its database name replaced by `name`. */
export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops `name` from a detached process (the caller does not wait for the checkpoint). */
export function dropLater(serverUrl: string, name: string): void {
  spawn(process.execPath, [DROPPER, serverUrl, name], { detached: true, stdio: 'ignore' }).unref();
}

async function exists(admin: pg.Client, name: string): Promise<boolean> {
  return (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
}

/** Runs `fn` until PostgreSQL stops answering "being accessed by other users" (a closed pool's backends leaving). */
async function whileAccessed(fn: () => Promise<unknown>): Promise<void> {
  for (let tries = 0; ; tries += 1) {
    try {
      await fn();
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== '55006' || tries >= 50) throw err;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * The template of this version of src/, built by `prepare` (migrations and default objects)
 * unless it exists. One test process builds it; the others wait for it (an advisory lock).
 */
async function ensureTemplate(admin: pg.Client, serverUrl: string, prepare: (url: string) => Promise<void>): Promise<string> {
  const name = `${TEMPLATE_PREFIX}${sourceKey()}`;
  if (await exists(admin, name)) return name;
  await admin.query("SELECT pg_advisory_lock(hashtext('netsot test template'))");
  try {
    if (await exists(admin, name)) return name;
    const building = `${name}_build`;
    await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${building}`);
    await prepare(databaseUrl(serverUrl, building));
    await whileAccessed(() => admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`));
    await admin.query(`COMMENT ON DATABASE ${name} IS '${new Date().toISOString()}'`);
    const stale = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE '${TEMPLATE_PREFIX}%' AND datname <> $1 AND shobj_description(oid, 'pg_database') < $2`,
      [name, new Date(Date.now() - TEMPLATE_KEEP_MS).toISOString()],
    );
    for (const row of stale.rows) dropLater(serverUrl, row.datname);
    return name;
  } finally {
    await admin.query("SELECT pg_advisory_unlock(hashtext('netsot test template'))");
  }
}

/**
 * A new database on the server of `serverUrl`, a copy of the migrated template (`prepare`
 * migrates a database given its URL). `drop()` returns at once; the database goes soon after.
 */
export async function cloneDatabase(serverUrl: string, prepare: (url: string) => Promise<void>): Promise<{ name: string; url: string; drop: () => void }> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const name = `t_${randomBytes(6).toString('hex')}`;
    for (let tries = 0; ; tries += 1) {
      const template = await ensureTemplate(admin, serverUrl, prepare);
      try {
        await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
        break;
      } catch (err) {
        // Dropped meanwhile as stale by another run (3D000): build it again.
        if ((err as { code?: string }).code !== '3D000' || tries >= 2) throw err;
      }
    }
    await admin.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
    return { name, url: databaseUrl(serverUrl, name), drop: () => dropLater(serverUrl, name) };
  } finally {
    await admin.end();
  }
}
