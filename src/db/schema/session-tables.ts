import type { Dialect } from '../dialects/dialect.js';

/**
 * Tables of the web interface's login, outside the registry (they are no model of the API):
 * sessions (the cookie's digest, its user, when it ends) and failed logins (for throttling).
 * Created when missing at every migration run, on both databases, shared by every process.
 */
export async function ensureSessionTables(dialect: Dialect): Promise<void> {
  await dialect.execScript([
    'CREATE TABLE IF NOT EXISTS "inventory_session" ("key_digest" text PRIMARY KEY, "user_id" text NOT NULL, "created" text NOT NULL, "expires" text NOT NULL)',
    'CREATE INDEX IF NOT EXISTS "inventory_session_expires" ON "inventory_session" ("expires")',
    'CREATE TABLE IF NOT EXISTS "inventory_login_failure" ("username" text NOT NULL, "address" text NOT NULL, "at" text NOT NULL)',
    'CREATE INDEX IF NOT EXISTS "inventory_login_failure_username" ON "inventory_login_failure" ("username", "at")',
    'CREATE INDEX IF NOT EXISTS "inventory_login_failure_address" ON "inventory_login_failure" ("address", "at")',
  ]);
}
