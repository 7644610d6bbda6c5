import { randomUUID } from 'node:crypto';
import { keyDigest } from './auth.js';
import { hashPassword } from '../core/passwords.js';
import { toIsoMicro } from '../core/fields/scalar.js';
import type { ResolvedModel, Row } from '../core/registry/types.js';
import type { Services } from './services.js';

/** Creates a user (superuser when asked) unless the username exists; returns its id. */
export async function ensureUser(services: Services, opts: { username: string; password?: string; superuser: boolean }): Promise<string> {
  const model = services.registry.get('users.user');
  const [existing] = await services.store.where(services.dialect.db, model, { username: opts.username });
  if (existing) return existing.id;
  const row = {
    id: randomUUID(), username: opts.username, password: opts.password ? await hashPassword(opts.password) : '!',
    is_superuser: opts.superuser, is_staff: opts.superuser, is_active: true, first_name: '', last_name: '', email: '',
    date_joined: toIsoMicro(new Date()), config_data: {}, last_login: null,
  } as Row;
  if (await insertUnlessTaken(services, model, row)) return row.id;
  return (await services.store.where(services.dialect.db, model, { username: opts.username }))[0].id;
}

/** Creates a token with the given key for a user unless that key exists. */
export async function ensureToken(services: Services, opts: { userId: string; key: string; description?: string }): Promise<void> {
  const model = services.registry.get('users.token');
  const [existing] = await services.store.where(services.dialect.db, model, { key_digest: keyDigest(opts.key) });
  if (existing) return;
  await insertUnlessTaken(services, model, {
    id: randomUUID(), key: opts.key, key_digest: keyDigest(opts.key), user_id: opts.userId, expires: null,
    write_enabled: true, description: opts.description ?? '', created: toIsoMicro(new Date()),
  } as Row);
}

/**
 * Inserts `row`; false when a unique key of it is taken meanwhile: processes started together
 * on one empty PostgreSQL database each bootstrap the same superuser, and the one that loses the
 * race finds the winner's row instead of failing its start.
 */
async function insertUnlessTaken(services: Services, model: ResolvedModel, row: Row): Promise<boolean> {
  try {
    await services.store.insert(services.dialect.db, model, [row]);
    return true;
  } catch (err) {
    if (services.dialect.errorKind(err)?.kind === 'unique_violation') return false;
    throw err;
  }
}

/** SUPERUSER_NAME / SUPERUSER_PASSWORD / SUPERUSER_API_TOKEN: a scripted first login. */
export async function bootstrapSuperuser(services: Services): Promise<void> {
  const su = services.config.superuser;
  if (!su) return;
  const userId = await ensureUser(services, { username: su.name, password: su.password, superuser: true });
  if (su.token) await ensureToken(services, { userId, key: su.token, description: 'SUPERUSER_API_TOKEN' });
}
