import { createHash } from 'node:crypto';
import { NotAuthenticatedError } from '../core/errors.js';
import { checkPassword, safeEqual } from '../core/passwords.js';
import { toIsoMicro } from '../core/fields/scalar.js';
import { firstRowWithGeneration, memoByGeneration } from '../db/generation-memo.js';
import type { Actor, Permission, Services } from './services.js';

/** Digest under which token keys are looked up, so the lookup itself reveals nothing of the key. */
export function keyDigest(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Enabled object permissions granted to the user directly or through groups (two queries). */
export async function loadPermissions(services: Services, userId: string): Promise<Permission[]> {
  const db = services.dialect.db;
  const rows = await db
    .selectFrom('users_objectpermission as p')
    .select(['p.id', 'p.actions', 'p.constraints'])
    .where('p.enabled', '=', services.dialect.encode('boolean', true))
    .where((eb) => eb.or([
      eb('p.id', 'in', eb.selectFrom('users_objectpermission__users').select('source_id').where('target_id', '=', userId)),
      eb('p.id', 'in', eb.selectFrom('users_objectpermission__groups').select('source_id')
        .where('target_id', 'in', eb.selectFrom('users_user__groups').select('target_id').where('source_id', '=', userId))),
    ]))
    .execute();
  if (rows.length === 0) return [];
  const types = await db.selectFrom('users_objectpermission__object_types').select(['source_id', 'content_type']).where('source_id', 'in', rows.map((r) => r.id)).execute();
  return rows.map((r) => ({
    object_types: types.filter((t) => t.source_id === r.id).map((t) => t.content_type as string),
    actions: (services.dialect.decode('json', r.actions) as string[]) ?? [],
    constraints: services.dialect.decode('json', r.constraints) as Permission['constraints'],
  }));
}

export async function toActor(services: Services, user: Record<string, unknown>, writeEnabled: boolean): Promise<Actor & { write_enabled: boolean }> {
  const isSuper = services.dialect.decode('boolean', user.is_superuser) as boolean;
  return {
    id: user.id as string,
    username: user.username as string,
    is_superuser: isSuper,
    is_active: services.dialect.decode('boolean', user.is_active) as boolean,
    permissions: isSuper ? [] : await loadPermissions(services, user.id as string),
    write_enabled: writeEnabled,
  };
}

/** Keys up to this long (a real one has 40 characters) key the memo themselves; longer ones (client input) by their digest. */
const MEMO_KEY_LENGTH = 64;

type TokenEntry = { row: Record<string, unknown> | undefined; matches?: boolean; actor?: Actor & { write_enabled: boolean } };

/** The token row of a key (its user's columns joined). */
function buildTokenQuery(db: Services['dialect']['db'], key: string) {
  return db
    .selectFrom('users_token as t')
    .innerJoin('users_user as u', 'u.id', 't.user_id')
    .select(['t.key', 't.expires', 't.write_enabled', 'u.id', 'u.username', 'u.is_superuser', 'u.is_active'])
    .where('t.key_digest', '=', keyDigest(key));
}

type TokenQuery = ReturnType<typeof buildTokenQuery>;
/** Token statements kept per database handle and key (client input: at most this many, then the table starts over). */
const [tokenQueries, MAX_TOKEN_QUERIES] = [new WeakMap<object, Map<string, TokenQuery>>(), 256];

/**
 * The token row's statement, built once per key (builders are immutable): PostgreSQL reads the
 * row on every request (beside the generation), and building it (a SHA-256 and a query builder)
 * was a few per cent of a detail GET there.
 */
function tokenQuery(services: Services, key: string): TokenQuery {
  const { db } = services.dialect;
  let byKey = tokenQueries.get(db);
  if (!byKey) tokenQueries.set(db, (byKey = new Map()));
  let query = byKey.get(key);
  if (query) return query;
  query = buildTokenQuery(db, key);
  if (key.length > MEMO_KEY_LENGTH) return query;
  if (byKey.size >= MAX_TOKEN_QUERIES) byKey.clear();
  byKey.set(key, query);
  return query;
}

/**
 * The token row (and, once authenticated, its actor), kept while the database's write generation
 * stands still, with the generation it belongs to. Keyed by the key itself (a hit hashes
 * nothing; see MEMO_KEY_LENGTH). Where reading the generation costs a statement and the request has not read it yet,
 * the row is read with the generation in one statement (the round trip the generation costs
 * anyway): the actor is still kept for that generation.
 */
async function lookupToken(services: Services, key: string, generation?: Promise<string | null>): Promise<{ entry: TokenEntry; generation?: Promise<string | null> }> {
  const { dialect } = services;
  const memoKey = key.length <= MEMO_KEY_LENGTH ? `token:${key}` : `token#${keyDigest(key)}`;
  if (generation || dialect.freeGeneration || !dialect.generationSql) {
    return { entry: await memoByGeneration(dialect, memoKey, async () => ({ row: await tokenQuery(services, key).executeTakeFirst() }), generation), generation };
  }
  const read = await firstRowWithGeneration(dialect, tokenQuery(services, key));
  const known = Promise.resolve(read.generation);
  const entry = await memoByGeneration(dialect, memoKey, async (): Promise<TokenEntry> => ({ row: read.row }), known);
  return { entry, generation: known };
}

/**
 * `Authorization: Token <key>` -> the actor, or the reference's 403 texts. `generation`: the
 * request's, when read; the answer's `generation` is the one the token was read at (read here
 * with the token row where that saves a statement, for the request to keep).
 */
export async function authenticateToken(services: Services, key: string, generation?: Promise<string | null>): Promise<{ actor: Actor & { write_enabled: boolean }; generation?: Promise<string | null> }> {
  const found = await lookupToken(services, key, generation);
  const { entry } = found;
  const row = entry.row;
  entry.matches ??= !!row && safeEqual(String(row.key), key);
  if (!row || !entry.matches) throw new NotAuthenticatedError('Invalid token');
  if (row.expires && String(row.expires) <= toIsoMicro(new Date())) throw new NotAuthenticatedError('Token expired');
  if (!services.dialect.decode('boolean', row.is_active)) throw new NotAuthenticatedError('User inactive');
  entry.actor ??= await toActor(services, row, services.dialect.decode('boolean', row.write_enabled) as boolean);
  return { actor: entry.actor, generation: found.generation };
}

/**
 * HTTP Basic (accepted by the tokens endpoint so a first token can be made). An inactive user
 * gets the same answer as a wrong password: the reference's model backend refuses them first.
 */
export async function authenticateBasic(services: Services, username: string, password: string) {
  const user = await services.dialect.db.selectFrom('users_user').selectAll().where('username', '=', username).executeTakeFirst();
  const matches = await checkPassword(password, user?.password);
  if (!user || !matches || !services.dialect.decode('boolean', user.is_active)) throw new NotAuthenticatedError('Invalid username/password.');
  return toActor(services, user, true);
}
