import Database from 'better-sqlite3';
import { withStatementCache } from '../../src/db/dialects/sqlite-statements.js';

/**
 * An in-memory SQLite connection made by `schema` (SQL run first), behind the service's
 * statement cache, with every text it prepares recorded in `prepared`.
 */
export function countedPrepares(schema: string) {
  const raw = new Database(':memory:');
  raw.exec(schema);
  const prepared: string[] = [];
  const prepare = raw.prepare.bind(raw);
  raw.prepare = ((text: string) => {
    prepared.push(text);
    return prepare(text);
  }) as typeof raw.prepare;
  return { db: withStatementCache(raw), prepared, close: () => raw.close() };
}
