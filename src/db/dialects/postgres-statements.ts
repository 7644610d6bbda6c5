import { createHash } from 'node:crypto';
import type pg from 'pg';
import { collapseInLists } from './postgres-in-lists.js';

/** Statement texts a connection keeps prepared at most (server memory per connection stays bounded). */
const MAX_PREPARED = 500;

/** Texts whose executions are counted, to name those run again; emptied when full. */
const MAX_SEEN = 5000;

/** A pooled client's `query(text, values)`, the call Kysely's PostgreSQL driver makes. */
type Query = (text: unknown, values?: unknown, callback?: unknown) => unknown;

/**
 * The name a statement text is prepared under on every connection: from its text, so the same
 * text gets the same name wherever (and after the seen-list is emptied) and no two texts share one.
 */
function nameOf(text: string): string {
  return `s${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
}

/**
 * Texts run at least twice: a page's statements repeat (one shape per model and
 * filter combination), one-off texts are not worth a prepared statement.
 */
class RepeatedTexts {
  private readonly seen = new Map<string, string | null>();

  /** The name to prepare `text` under, or null while it has run only once. */
  name(text: string): string | null {
    const known = this.seen.get(text);
    if (known) return known;
    if (this.seen.size >= MAX_SEEN) this.seen.clear();
    const name = known === null ? nameOf(text) : null;
    this.seen.set(text, name);
    return name;
  }
}

/** The options of a config object `asStatement` reads (one with any other is passed on as it is). */
const STATEMENT_KEYS = new Set(['text', 'values', 'rowMode']);

/**
 * The text, values and row mode of a `query` call: `(text, values)`, or a config object without a
 * name of its own (`{ text, values, rowMode }`, postgres-read-rows.ts); anything else (a named
 * or submittable query, other options) is left as it is (no text).
 */
function asStatement(sent: unknown, values: unknown): { text?: unknown; values?: unknown; rowMode?: 'array' } {
  if (typeof sent === 'string') return { text: sent, values };
  if (values !== undefined || typeof sent !== 'object' || sent === null || !Object.keys(sent).every((key) => STATEMENT_KEYS.has(key))) return {};
  const config = sent as { text?: unknown; values?: unknown; rowMode?: unknown };
  return { text: config.text, values: config.values, rowMode: config.rowMode === 'array' ? 'array' : undefined };
}

/** PostgreSQL's answer when a prepared `SELECT *` meets a table whose columns changed since (a migration). */
function isStalePlan(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === '0A000' && /cached plan must not change result type/.test(String((err as Error).message));
}

/**
 * Makes each client of the pool run a statement text it has seen run before as a named prepared
 * statement (issue 22): PostgreSQL then parses and plans it once per connection instead of on
 * every execution. Only parameterized statements (the extended protocol); scripts and
 * transaction commands run as they are. A connection prepares at most MAX_PREPARED texts.
 * IN-lists of placeholders are sent as one array parameter (postgres-in-lists.ts), so a list's
 * length does not make a text of its own.
 */
export function withNamedStatements(pool: pg.Pool): void {
  const texts = new RepeatedTexts();
  pool.on('connect', (client) => {
    const plain = client.query.bind(client) as Query;
    const prepared = new Set<string>();
    const named: Query = (sent, sentValues, callback) => {
      const { text: sentText, values: givenValues, rowMode } = asStatement(sent, sentValues);
      if (typeof sentText !== 'string' || !Array.isArray(givenValues) || givenValues.length === 0 || callback !== undefined) return plain(sent, sentValues, callback);
      const { text, values } = collapseInLists(sentText, givenValues);
      const name = texts.name(text);
      if (!name || (!prepared.has(name) && prepared.size >= MAX_PREPARED)) return rowMode ? plain({ text, values, rowMode }) : plain(text, values);
      prepared.add(name);
      return (plain({ name, text, values, ...(rowMode ? { rowMode } : {}) }) as Promise<unknown>).catch((err: unknown) => {
        if (!isStalePlan(err)) throw err;
        // The statement is dropped and the text runs unnamed (outside a transaction; inside, the error stands).
        prepared.delete(name);
        return (plain(`DEALLOCATE "${name}"`) as Promise<unknown>).then(() => {
          delete (client as unknown as { connection: { parsedStatements: Record<string, string> } }).connection.parsedStatements[name];
          return rowMode ? plain({ text, values, rowMode }) : plain(text, values);
        }, () => Promise.reject(err));
      });
    };
    (client as unknown as { query: Query }).query = named;
  });
}
