import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { CompiledQuery, SqliteDialect, sql } from 'kysely';
import { encodeJson } from '../../core/json-text.js';
import { regexError, regexSearch } from '../../core/regex.js';
import { makeCounter } from './dialect.js';
import { GuardedKysely, insideTransaction } from './transaction-guard.js';
import { checkpointInWorker, checkpointWhileWriting } from './sqlite-checkpoint.js';
import { sqliteJson } from './sqlite-json.js';
import { withStatementCache } from './sqlite-statements.js';
import { ReadTurn } from './sqlite-read-turn.js';
import type { HousekeepingTally, Prepared } from './sqlite-statements.js';
import type { Dialect } from './dialect.js';
import type { Storage } from '../../core/fields/kind.js';

const TYPES: Record<Storage, string> = {
  text: 'text', integer: 'integer', bigint: 'integer', real: 'real', boolean: 'integer',
  json: 'text', document: 'text', uuid: 'text', binary: 'blob', none: 'text',
};

/** Driver values that read back as another JS value (the other storages come back as stored). */
const parseJson = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);
const DECODERS: Partial<Record<Storage, (value: unknown) => unknown>> = {
  boolean: (value) => value === 1 || value === true,
  json: parseJson,
  document: parseJson,
};

/**
 * How a connection is opened: its page cache in MB (SQLITE_CACHE_MB; the driver's 16 when
 * absent), whether it checkpoints the WAL on a timer, and the WAL's bound in MB
 * (SQLITE_WAL_LIMIT_MB, 256 when absent; see sqlite-checkpoint.ts), and how long the checkpoint
 * thread outlives the last write in ms (SQLITE_CHECKPOINT_IDLE_MS; absent or 0: it stays).
 */
export type SqliteOptions = { cacheMb?: number; checkpoints?: boolean; walLimitMb?: number; checkpointIdleMs?: number };

const DEFAULT_WAL_LIMIT_MB = 256;

function openDatabase(file: string, opts: SqliteOptions): Database.Database {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const db = new Database(file);
  // A negative cache_size is KiB: the pages this connection keeps in memory between statements.
  if (opts.cacheMb !== undefined) db.pragma(`cache_size = -${Math.max(1, Math.round(opts.cacheMb * 1024))}`);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  // The log file is cut back to this size whenever it starts over (else it keeps its largest size on disk).
  db.pragma(`journal_size_limit = ${walLimitBytes(opts)}`);
  // RE2 (linear time, core/regex.ts): a pattern cannot stall the event loop. Filters check
  // patterns first (`regexError`); one that cannot run matches nothing here.
  db.function('regexp', { deterministic: true }, (pattern: unknown, value: unknown) => {
    if (value === null || value === undefined) return 0;
    const [source, ci] = String(pattern).startsWith('(?i)') ? [String(pattern).slice(4), true] : [String(pattern), false];
    return regexSearch(source, String(value), ci) ? 1 : 0;
  });
  return db;
}

function walLimitBytes(opts: SqliteOptions): number {
  return Math.round((opts.walLimitMb ?? DEFAULT_WAL_LIMIT_MB) * 1024 * 1024);
}

/** Checkpoints move to a worker thread (`sqlite-checkpoint.ts`); an in-memory database has none. */
function checkpointOnTimer(db: Database.Database, file: string, opts: SqliteOptions, changes: () => string): () => Promise<void> {
  if (file === ':memory:') return async () => undefined;
  db.pragma('wal_autocheckpoint = 0');
  const fallBack = () => db.pragma('wal_autocheckpoint = 1000');
  const idleMs = opts.checkpointIdleMs ?? 0;
  if (idleMs <= 0) return checkpointInWorker(path.resolve(file), fallBack, { walLimitBytes: walLimitBytes(opts) });
  return checkpointWhileWriting(path.resolve(file), fallBack, { walLimitBytes: walLimitBytes(opts), idleMs, changes });
}

/**
 * `data_version` moves when another connection commits; `total_changes()` counts this
 * connection's row changes (committed or not: a read waits for an open transaction anyway);
 * `local` counts schema scripts and rollbacks (whose undone changes left `total_changes()` moved).
 * Two statements: one (`SELECT data_version || ':' || total_changes() FROM pragma_data_version`)
 * gives the same value but costs more, 2.8-2.9 µs a read against 1.9-2.0 (the pragma as a table).
 * Read synchronously by the checkpoint timer, and by `generationReader` for requests, which
 * leaves out the changes made inside `housekeeping` (`left`: the runner's heartbeat, every 10 s).
 */
function changesReader(db: Database.Database, local: () => string, left?: HousekeepingTally): () => string {
  const changes = db.prepare('SELECT total_changes()').pluck();
  const version = db.prepare('PRAGMA data_version').pluck();
  if (!left) return () => `${version.get()}:${changes.get()}:${local()}`;
  return () => `${version.get()}:${(changes.get() as number) - left.changes}:${local()}`;
}

/** The write generation as a request reads it: within the turn's read transaction (sqlite-read-turn.ts). */
function generationReader(changes: () => string, turn: ReadTurn): () => Promise<string> {
  return async () => {
    turn.enter();
    return changes();
  };
}

/**
 * The embedded database: one file (or memory), WAL mode. `checkpoints: false` (a job thread's
 * connection) leaves checkpoints to the process's own connection and SQLite's threshold.
 */
export function createSqliteDialect(file: string, opts: SqliteOptions = {}): Dialect {
  const raw = openDatabase(file, opts);
  const counter = makeCounter();
  let scripts = 0;
  const local = () => `${scripts}.${counter.rollbacks()}`;
  const changes = changesReader(raw, local);
  const stopCheckpoints = opts.checkpoints === false ? async () => undefined : checkpointOnTimer(raw, file, opts, changes);
  const turn = new ReadTurn(raw);
  const housekept: HousekeepingTally = { changes: 0 };
  const statements = withStatementCache(raw, turn, housekept);
  const db = new GuardedKysely({ dialect: new SqliteDialect({ database: statements }), log: counter.log });
  return {
    name: 'sqlite',
    db,
    columnType: (storage) => TYPES[storage],
    encode(storage, value) {
      if (value === null || value === undefined) return null;
      if (storage === 'boolean') return value ? 1 : 0;
      if (storage === 'json' || storage === 'document') return encodeJson(value);
      return value;
    },
    decode(storage, value) {
      if (value === null || value === undefined) return null;
      const decode = DECODERS[storage];
      return decode ? decode(value) : value;
    },
    decodes: new Set(Object.keys(DECODERS) as Storage[]),
    // CROSS JOIN fixes the loop order: SQLite would rather scan the table and index the tuples.
    joinProbe: (table, alias, on, index) => sql`CROSS JOIN ${sql.table(table)} AS ${sql.id(alias)}${index ? sql` INDEXED BY ${sql.id(index)}` : sql``} ON ${on}`,
    ilike: (column, pattern) => sql`${column} LIKE ${pattern} ESCAPE '\\'`,
    valueList: (values) => sql`SELECT value FROM json_each(${JSON.stringify(values)})`,
    regex: (column, pattern, ci) => sql`${column} REGEXP ${ci ? `(?i)${pattern}` : pattern}`,
    async execScript(statements) {
      scripts += 1;
      turn.leave();
      if (statements.length > 0) raw.exec(statements.join(';\n'));
    },
    async listTables() {
      const tables = await db.introspection.getTables();
      return new Map(tables.map((t) => [t.name, new Set(t.columns.map((c) => c.name))]));
    },
    async readRows(exec, text, params) {
      // Another request's transaction (or a statement awaiting its turn) holds the one connection: wait for it through Kysely.
      if (exec !== db || !db.connectionsIdle || insideTransaction()) return (await exec.executeQuery<Record<string, unknown>>(CompiledQuery.raw(text, [...params]))).rows;
      const started = performance.now();
      const rows = statements.prepare(text).all([...params]) as Record<string, unknown>[];
      counter.log({ level: 'query', query: CompiledQuery.raw(text, [...params]), queryDurationMillis: performance.now() - started });
      return rows;
    },
    async readArrays(exec, text, params) {
      if (exec !== db || !db.connectionsIdle || insideTransaction()) return null;
      const stmt = statements.prepare(text) as unknown as Prepared;
      const started = performance.now();
      const rows = stmt.arrays([...params]);
      if (!rows || !stmt.names) return null;
      counter.log({ level: 'query', query: CompiledQuery.raw(text, [...params]), queryDurationMillis: performance.now() - started });
      return { names: stmt.names, rows };
    },
    probeKey: (key) => sql`+${key}`,
    sortsNullsFirst: true,
    json: sqliteJson,
    queryCount: counter.count,
    freeGeneration: true,
    endReadTurn: () => turn.leave(),
    // Never inside a transaction or while a statement waits for the connection.
    releaseMemory: () => {
      if (db.connectionsIdle && !insideTransaction()) raw.pragma('shrink_memory');
    },
    // Bookkeeping writes are left out; the checkpoints above still see them (their pages are in the WAL).
    writeGeneration: generationReader(changesReader(raw, local, housekept), turn),
    // Transactions begin IMMEDIATE (sqlite-statements.ts): one writer at a time, in every process.
    lockTable: async () => undefined,
    lockScope: async () => undefined,
    tryLockScope: async () => true,
    lockForUpdate: (query) => query,
    compressFast: async () => undefined,
    retypeColumns: async () => undefined,
    // One statement at a time on the event loop: the regex engine is linear (sqlite-regexp.ts) and
    // LIKE patterns carry no user wildcards, so no statement of ours runs unbounded.
    limitStatements: async () => undefined,
    // Writers are serialized, so a unique index never races the checks; a lock not granted within the busy timeout (WORKERS on one file) is a conflict.
    errorKind: (err) => (/^SQLITE_BUSY/.test(String((err as { code?: unknown } | null)?.code)) ? { kind: 'write_conflict' } : null),
    regexError: async (_exec, pattern) => regexError(pattern),
    notify: async () => undefined,
    listen: async () => async () => undefined,
    close: async () => {
      await stopCheckpoints();
      turn.leave();
      await db.destroy();
    },
  };
}
