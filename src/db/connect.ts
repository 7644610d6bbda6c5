import { createPostgresDialect } from './dialects/postgres.js';
import { createSqliteDialect } from './dialects/sqlite.js';
import type { Dialect } from './dialects/dialect.js';
import type { SqliteOptions } from './dialects/sqlite.js';

/**
 * Opens the database named by a `DATABASE_URL` (`sqlite:<path>`, `sqlite::memory:`, `postgres://...`);
 * `statisticsEveryMs`: how often PostgreSQL looks for stale planner statistics (10 s).
 * `sqlite` holds SQLite's connection options (page cache, checkpoints); PostgreSQL ignores them.
 */
export function connect(url: string, opts: { schema?: string; poolSize?: number; statisticsEveryMs?: number; sqlite?: SqliteOptions } = {}): Dialect {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return { ...createPostgresDialect(url, opts), source: { url, schema: opts.schema } };
  if (url.startsWith('sqlite:')) return { ...createSqliteDialect(url.slice('sqlite:'.length) || ':memory:', opts.sqlite), source: { url } };
  throw new Error(`DATABASE_URL must start with sqlite: or postgres://, got "${url}"`);
}
