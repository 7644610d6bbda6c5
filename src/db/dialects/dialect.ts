import { ScopedStorage } from '../../core/scoped-storage.js';
import type { Kysely, LogEvent, RawBuilder, SelectQueryBuilder } from 'kysely';
import type { Storage } from '../../core/fields/kind.js';

/**
 * What differs between databases, behind one shape: column types, value codecs and the few
 * operators that are spelled differently. Code outside db/dialects asks this object, never
 * the dialect's name.
 */
export type Dialect = {
  name: 'sqlite' | 'postgres';
  db: Kysely<any>;
  /** SQL column type for a storage class. */
  columnType(storage: Storage): string;
  /** JS value -> driver parameter. */
  encode(storage: Storage, value: unknown): unknown;
  /** Driver value -> JS value. */
  decode(storage: Storage, value: unknown): unknown;
  /** The storage classes whose driver values `decode` changes (the others it returns as they are, null for undefined): derived from the same table as `decode`. */
  decodes: ReadonlySet<Storage>;
  /** Case-insensitive LIKE (pattern already escaped with backslash). */
  ilike(column: RawBuilder<unknown>, pattern: string): RawBuilder<unknown>;
  /** Regular-expression match. */
  regex(column: RawBuilder<unknown>, pattern: string, caseInsensitive: boolean): RawBuilder<unknown>;
  /**
   * `FROM x <joinProbe> ...`: the rows of `table` (as `alias`) meeting `on`, probed through an
   * index for each row of x, whatever the planner estimates for x (a recursive set, a list of
   * tuples). With a plain join, PostgreSQL sorts or hashes the whole table when it misjudges x,
   * and SQLite scans it (1000 tuples of a uniqueness check against 31 000 locations:
   * PostgreSQL 50 ms, probed 2 ms; SQLite 9 ms, probed 0.6 ms). `index`, when given, is the
   * index to probe: SQLite, without statistics, takes a covering index whose first column alone
   * matches for more selective than one matching every compared column (a uniqueness probe of
   * prefixes then read the namespace's whole index, 40 ms a tuple at 200 000 prefixes).
   */
  joinProbe(table: string, alias: string, on: RawBuilder<unknown>, index?: string): RawBuilder<unknown>;
  /**
   * `table.id = <probeKey(v.column1)>` in `UPDATE table ... FROM <rows> AS v`: each row of v
   * probes the table's id index, whatever the planner estimates. SQLite, without statistics,
   * otherwise scans the whole table against an automatic index on v once v has a few hundred
   * rows (400 cable ends against 95 000 interfaces: 200 ms scanned, 2-20 ms probed); `+` makes
   * the key an expression it cannot index. PostgreSQL plans from statistics: the key as it is.
   */
  probeKey(key: RawBuilder<unknown>): RawBuilder<unknown>;
  /** Whether NULL sorts before every other value in ascending order (SQLite) or after it (PostgreSQL). */
  sortsNullsFirst: boolean;
  /** JSON-object columns (custom field data): reads and edits of one key, the same in every dialect. */
  json: JsonSql;
  /** Runs several parameterless statements in one round trip (schema DDL). */
  execScript(statements: string[]): Promise<void>;
  /** Tables of the current schema and their column names. */
  listTables(): Promise<Map<string, Set<string>>>;
  /**
   * The rows of a compiled statement text (the dialect's placeholders) and its parameters, read on
   * `exec`. SQLite runs it on its connection at once when `exec` is the root handle and the
   * connection is free, without Kysely's executor (issue 22: its promise chain costs more than a
   * small statement); otherwise, and on PostgreSQL, it goes through `exec`. Counted as any statement.
   */
  readRows(exec: Kysely<any>, text: string, params: readonly unknown[]): Promise<Record<string, unknown>[]>;
  /**
   * `readRows` as the driver's arrays and the statement's column names, where the dialect can
   * (SQLite on its free connection), so the store decodes each row from its array once; null
   * where it cannot (the caller then uses `readRows`), and nothing is run then.
   */
  readArrays?(exec: Kysely<any>, text: string, params: readonly unknown[]): Promise<{ names: readonly string[]; rows: unknown[][] } | null>;
  /** Number of statements executed so far (query-count tests and the bench guard). */
  queryCount(): number;
  /** Connections of the pool, where there is one (PostgreSQL): open, idle, requests waiting, maximum. */
  poolStats?(): { total: number; idle: number; waiting: number; max: number };
  /**
   * A token that changes whenever data may have changed (any connection, any process; SQLite:
   * pending changes of an open transaction included, and again when it ends; PostgreSQL: when a
   * writing transaction commits, as readers outside it see it); null where the database cannot
   * offer one (then nothing is cached across requests). Never a key for anything kept when read
   * inside a write transaction.
   */
  writeGeneration(): Promise<string | null>;
  /** Whether reading the generation costs no statement (then small per-request reads are memoized by it). */
  freeGeneration: boolean;
  /**
   * Where reads of one turn of the event loop share a read transaction (SQLite, sqlite-read-turn.ts):
   * ends it, so what is read next sees every commit made so far (a request calls it as it arrives).
   */
  endReadTurn?(): void;
  /**
   * Gives back the memory the connections keep between statements and can do without (SQLite:
   * `PRAGMA shrink_memory`, the page cache's pages, read again from the file when next needed);
   * called at a quiet moment (idle-collection.ts). Absent where the memory is not the process's.
   */
  releaseMemory?(): void;
  /**
   * Where reading the generation costs a statement: the generation as an SQL expression, so a
   * statement a request makes anyway reads it too (generation-memo.ts `firstRowWithGeneration`).
   */
  generationSql?: RawBuilder<string>;
  /**
   * Rows passed as one array parameter per column (`unnest($1::uuid[], $2::text[])`), for bulk
   * statements that would otherwise carry thousands of placeholders (bulk-rows.ts); absent where
   * the database has no array parameters.
   */
  unnestRows?(types: string[]): RawBuilder<unknown>;
  /**
   * `column IN (<valueList>)`: a list of any length bound as one parameter (a JSON array read by
   * json_each, a PostgreSQL array), so a batched read costs one statement whatever its size.
   */
  valueList(values: readonly unknown[], storage: Storage): RawBuilder<unknown>;
  /**
   * Makes every write to these tables (any connection, any process) move `writeGeneration`, where
   * the database needs it set up (PostgreSQL: a trigger per table, postgres-generation.ts); run at
   * every start, after the schema is synced. Absent where writes move it anyway (SQLite).
   */
  trackWrites?(tables: readonly string[]): Promise<void>;
  /**
   * The exact number of rows of a whole table as an SQL expression without parameters, where the
   * database keeps it (PostgreSQL, for the tables trackWrites set up: postgres-row-counts.ts);
   * undefined where `count(*)` must count them.
   */
  rowCountSql?(table: string): RawBuilder<number> | undefined;
  /** Locks rows/tables for an allocation in the current transaction, where the database needs it. */
  lockTable(trx: Kysely<any>, table: string): Promise<void>;
  /**
   * Takes a lock named `scope` until the transaction ends, where writers are not already
   * serialized (PostgreSQL: a transaction-scoped advisory lock; SQLite: BEGIN IMMEDIATE already
   * serializes writers). Take it first in the transaction, before any row lock, so that two
   * writers always queue in the same order (transaction-guard.ts, point 5).
   */
  lockScope(trx: Kysely<any>, scope: string): Promise<void>;
  /**
   * Takes the lock named `scope` until the transaction ends if no other transaction holds it, and
   * says whether it did; never waits (PostgreSQL: `pg_try_advisory_xact_lock`; SQLite: always
   * true, BEGIN IMMEDIATE already made this the only writer). For background work that another
   * process may be doing at the same moment, and that must not wait on a holder that is stuck.
   */
  tryLockScope(trx: Kysely<any>, scope: string): Promise<boolean>;
  /**
   * A SELECT that locks the rows it reads until the transaction ends (FOR UPDATE), where writers
   * are not already serialized: a read-modify-write (a PATCH merging custom fields) then sees the
   * last committed row and no concurrent writer can change it before the write.
   */
  lockForUpdate<Q extends SelectQueryBuilder<any, any, any>>(query: Q): Q;
  /**
   * Compresses large values of these columns with the database's fastest method, where it has a
   * choice (PostgreSQL 14+ built with lz4: lz4 instead of pglz, for values written from now on);
   * a no-op elsewhere. A storage setting only: what is read back does not change.
   */
  compressFast(table: string, columns: string[]): Promise<void>;
  /**
   * Converts columns whose SQL type differs from their storage's to it, casting the stored values
   * (a migration after a storage change); a no-op where column types are affinities (SQLite).
   */
  retypeColumns(table: string, columns: { name: string; storage: Storage }[]): Promise<void>;
  /**
   * From now on, cancel any statement that runs longer than `ms` (0: no limit) where the database
   * can (PostgreSQL `statement_timeout`); the query fails with `isStatementTimeout`. Set after
   * migrations.
   */
  limitStatements(ms: number): Promise<void>;
  /** What a driver error means, where the request rather than the service is at fault. */
  errorKind(err: unknown): DriverErrorKind | null;
  /**
   * Why this database cannot run `pattern` as a `regex` (a 400 naming the filter), or null.
   * SQLite runs patterns on the linear-time engine (core/regex.ts); PostgreSQL on its own,
   * asked with one statement outside transactions (inside one a refused pattern would abort it:
   * `errorKind` then reports it).
   */
  regexError(exec: Kysely<any>, pattern: string): Promise<string | null>;
  /**
   * Wakes listeners of `channel` in every process when `exec`'s transaction commits (PostgreSQL
   * NOTIFY; nothing is sent for a rollback). SQLite has no other process to tell: a no-op.
   */
  notify(exec: Kysely<any>, channel: string): Promise<void>;
  /** Calls `onNotify` for each `notify` of `channel` (PostgreSQL LISTEN on a connection of its own); returns how to stop. SQLite: never calls. */
  listen(channel: string, onNotify: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /** How `connect` opened it, so a worker thread or process can open its own connection to the same database. */
  source?: { url: string; schema?: string };
};

/**
 * What a driver error means: `statement_timeout`, cancelled by `limitStatements`;
 * `invalid_regex`, a pattern the database refused; `unique_violation`, a concurrent writer
 * committed the same unique values first (the checks before the write could not see it);
 * `write_conflict`, a deadlock, a serialization failure or a lock not granted in time. The last
 * two are worth running the transaction again (ops/write/transaction.ts).
 */
export type DriverErrorKind = { kind: 'statement_timeout' | 'unique_violation' | 'write_conflict' } | { kind: 'invalid_regex'; message: string };

/**
 * SQL over one key of a JSON-object column. `key` is passed as a parameter, never spliced.
 * `get` reads the value as text (strings unquoted), as a number (null unless numeric), or as
 * canonical JSON text (`literal` normalises a JSON text the same way); all are SQL NULL when the
 * key is absent.
 */
export type JsonSql = {
  get(column: RawBuilder<unknown>, key: string, as: 'text' | 'number' | 'json'): RawBuilder<unknown>;
  literal(jsonText: string): RawBuilder<unknown>;
  /** True when the value under `key` is an array holding the string `value`. */
  arrayHas(column: RawBuilder<unknown>, key: string, value: string): RawBuilder<unknown>;
  /** The object with `key` set to the JSON value `jsonText` (a null column counts as `{}`). */
  set(column: RawBuilder<unknown>, key: string, jsonText: string): RawBuilder<unknown>;
  /** The object without `key`. */
  remove(column: RawBuilder<unknown>, key: string): RawBuilder<unknown>;
};

/** Marks background work (the queue's runner): its statements are left out of `queryCount`, which measures requests. */
const uncountedScope = new ScopedStorage<true>();

/**
 * Runs `fn` with its statements left out of `queryCount` (everything it awaits included; work it
 * starts and leaves running, until `fn` settles: core/scoped-storage.ts).
 */
export function uncounted<T>(fn: () => Promise<T>): Promise<T> {
  return uncountedScope.run(true, fn);
}

/** Marks the service's bookkeeping of its own workers (heartbeats, lease renewals, prunes): see `housekeeping`. */
const housekeepingScope = new ScopedStorage<true>();

/**
 * Runs `fn`, left out of `queryCount` as `uncounted` is, as bookkeeping no API response shows
 * (the queue runner's heartbeat: worker rows, lease renewals, prunes of finished items). On
 * SQLite its row changes do not move the write generation, so a heartbeat every 10 s no longer
 * drops the response cache and every memo of the generation. PostgreSQL's generation counts
 * writes to the registry's tables only, which bookkeeping never touches.
 */
export function housekeeping<T>(fn: () => Promise<T>): Promise<T> {
  return housekeepingScope.run(true, () => uncounted(fn));
}

/** Whether the caller runs inside `housekeeping`. */
export function inHousekeeping(): boolean {
  return housekeepingScope.getStore() === true;
}

/** Counts statements through Kysely's log hook. */
export function makeCounter(): { count: () => number; rollbacks: () => number; log: (event: LogEvent) => void } {
  let n = 0;
  let rollbacks = 0;
  const trace = process.env.SQL_TRACE === '1';
  return {
    count: () => n,
    /** Rolled-back transactions and savepoints: undone changes still moved `total_changes()`. */
    rollbacks: () => rollbacks,
    log: (event) => {
      if (!uncountedScope.getStore()) n += 1;
      if (/^\s*rollback/i.test(event.query.sql)) rollbacks += 1;
      if (trace) process.stderr.write(`[sql ${event.queryDurationMillis.toFixed(2)} ms] ${event.query.sql}\n`);
    },
  };
}
