import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { loadConfig } from '../../src/core/config.js';
import { backgroundOf } from '../../src/background.js';
import { publishedListeners } from '../../src/events/publisher.js';
import { DB_URL, makeApp, create } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';

/**
 * On PostgreSQL the publisher of each process takes the publishing lock only if it is free. While
 * another connection holds it (another process publishing, or one paused mid-publication), this
 * process publishes nothing, tries again shortly, publishes once the lock is released, and can
 * always be stopped: it never waits on the holder.
 */
const skip = DB_URL.startsWith('postgres') ? false : 'runs with DATABASE_URL=postgres://...';
const LOCK = `SELECT pg_advisory_xact_lock(hashtextextended('netsot:outbox-publish', 0))`;
let t: TestApp;
let holder: pg.Client;
/** Resolved at each publisher attempt to take the lock after `attempted` was reset. */
let attempted: () => void = () => undefined;

before(async () => {
  if (skip) return;
  t = await makeApp({ queue: { ...loadConfig({}).queue, pollMs: 3_600_000 } });
  const dialect = t.app.services.dialect;
  for (const method of ['lockScope', 'tryLockScope'] as const) {
    const take = dialect[method].bind(dialect) as (...args: unknown[]) => Promise<unknown>;
    (dialect as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
      if (args[1] === 'outbox-publish') attempted();
      return take(...args);
    };
  }
  holder = new pg.Client({ connectionString: t.app.services.config.databaseUrl });
  await holder.connect();
});

after(async () => {
  if (skip) return;
  await holder.end();
  await t.close();
});

/** Holds the publishing lock in a transaction of another connection until the returned function is called. */
async function holdLock(): Promise<() => Promise<void>> {
  await holder.query('BEGIN');
  await holder.query(LOCK);
  return async () => {
    await holder.query('COMMIT');
  };
}

const nextAttempt = () => new Promise<void>((resolve) => { attempted = resolve; });
const published = () => new Promise<void>((resolve) => publishedListeners(t.app.services).add(resolve));

test('a change committed while another connection holds the lock is published once it is released', { skip, timeout: 30_000 }, async () => {
  const release = await holdLock();
  const attempt = nextAttempt();
  await create(t, '/api/tenancy/tenants/', { name: 'held' });
  await attempt;
  const done = published();
  // The poll is an hour away: what publishes now is the retry after the lock was refused.
  await nextAttempt();
  await release();
  await done;
  const { rows } = await holder.query(`SELECT COUNT(*)::int AS "n" FROM "inventory_outbox" WHERE "seq" IS NULL`);
  assert.equal(rows[0].n, 0);
});

test('stopping the background does not wait for a connection that holds the lock', { skip, timeout: 30_000 }, async () => {
  const release = await holdLock();
  try {
    const attempt = nextAttempt();
    await create(t, '/api/tenancy/tenants/', { name: 'stuck holder' });
    await attempt;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<string>((resolve) => { timer = setTimeout(() => resolve('still waiting after 10 s'), 10_000); });
    const stopped = backgroundOf(t.app.services)!.stop().then(() => 'stopped');
    assert.equal(await Promise.race([stopped, timeout]), 'stopped');
    clearTimeout(timer);
  } finally {
    await release();
  }
});
