import { randomBytes } from 'node:crypto';
import { keyDigest, toActor } from './auth.js';
import type { Actor, Services } from './services.js';

/**
 * Failed logins allowed per username from one client address, and per address whatever the
 * usernames, within the window; more are refused until it passes. Counting a username's
 * failures per address means guessing from one address cannot lock its owner out from another.
 */
export const THROTTLE = { perUsername: 5, perAddress: 20, windowSeconds: 15 * 60 };

const iso = (ms: number) => new Date(ms).toISOString();

/** A new session for the user, lasting `config.sessionCookieAge` seconds: the cookie value (only its digest is stored). */
export async function createSession(services: Services, userId: string): Promise<string> {
  const key = randomBytes(32).toString('base64url');
  const now = Date.now();
  await services.dialect.db.insertInto('inventory_session')
    .values({ key_digest: keyDigest(key), user_id: userId, created: iso(now), expires: iso(now + services.config.sessionCookieAge * 1000) })
    .execute();
  // Expired sessions of anyone go with each login, so the table holds only live ones.
  await services.dialect.db.deleteFrom('inventory_session').where('expires', '<=', iso(now)).execute();
  return key;
}

/** The actor of a live session of an active user, or null (unknown, expired, user gone or inactive). */
export async function sessionActor(services: Services, key: string): Promise<(Actor & { write_enabled: boolean }) | null> {
  if (!key || key.length > 100) return null;
  const session = await services.dialect.db.selectFrom('inventory_session').select(['user_id', 'expires'])
    .where('key_digest', '=', keyDigest(key)).executeTakeFirst();
  if (!session || String(session.expires) <= iso(Date.now())) return null;
  // Read apart (no join): the user's id is a uuid column on PostgreSQL, the session's a text one.
  const row = await services.dialect.db.selectFrom('users_user').select(['id', 'username', 'is_superuser', 'is_active'])
    .where('id', '=', String(session.user_id)).executeTakeFirst();
  if (!row || !services.dialect.decode('boolean', row.is_active)) return null;
  return toActor(services, row, true);
}

/** Logout: the session ends at once, in every process. */
export async function deleteSession(services: Services, key: string): Promise<void> {
  await services.dialect.db.deleteFrom('inventory_session').where('key_digest', '=', keyDigest(key)).execute();
}

/** Whether logins for this username from this address, or any from this address, are refused for now (too many recent failures). */
export async function loginThrottled(services: Services, username: string, address: string): Promise<boolean> {
  const since = iso(Date.now() - THROTTLE.windowSeconds * 1000);
  const row = await services.dialect.db.selectFrom('inventory_login_failure')
    .select((eb) => [eb.fn.countAll().as('n'), eb.fn.sum(eb.case().when('username', '=', username).then(1).else(0).end()).as('mine')])
    .where('address', '=', address).where('at', '>', since).executeTakeFirst();
  return Number(row?.mine ?? 0) >= THROTTLE.perUsername || Number(row?.n ?? 0) >= THROTTLE.perAddress;
}

/** Records a failed login (and forgets failures older than the window). */
export async function recordLoginFailure(services: Services, username: string, address: string): Promise<void> {
  const now = Date.now();
  await services.dialect.db.insertInto('inventory_login_failure').values({ username, address, at: iso(now) }).execute();
  await services.dialect.db.deleteFrom('inventory_login_failure').where('at', '<=', iso(now - THROTTLE.windowSeconds * 1000)).execute();
}

/** A successful login clears its username's failures from its address (those from elsewhere keep counting there). */
export async function clearLoginFailures(services: Services, username: string, address: string): Promise<void> {
  await services.dialect.db.deleteFrom('inventory_login_failure').where('username', '=', username).where('address', '=', address).execute();
}
