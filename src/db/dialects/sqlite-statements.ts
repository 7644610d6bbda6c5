import type Database from 'better-sqlite3';
import { compileRowBuilder } from '../row-builder.js';
import type { RowBuilder } from '../row-builder.js';
import type { ReadTurn } from './sqlite-read-turn.js';

type Params = unknown[];

/**
 * A prepared statement as Kysely's SQLite driver uses it (`reader`, `all`, `run`, `iterate`).
 * Reads come back from better-sqlite3 as arrays and are turned into objects by a function
 * compiled once for the statement's columns: about twice as fast as the driver's own objects.
 */
export class FastStatement {
  readonly reader: boolean;
  /** The statement's result column names (a reader's, when its rows come back as arrays). */
  readonly names?: readonly string[];
  private readonly build?: RowBuilder;
  /** A statement that only reads (not a RETURNING write, not BEGIN or a pragma that sets): it joins the turn's read transaction. */
  private readonly onlyReads: boolean;

  constructor(private readonly stmt: Database.Statement, private readonly turn?: ReadTurn) {
    this.reader = stmt.reader;
    this.onlyReads = stmt.reader && stmt.readonly;
    if (!this.reader) return;
    const names = stmt.columns().map((c) => c.name);
    // An object literal treats a `__proto__` key as the prototype: such a statement keeps the driver's objects.
    if (names.includes('__proto__')) return;
    stmt.raw(true);
    this.names = names;
    this.build = compileRowBuilder(names);
  }

  all(params: Params): unknown[] {
    this.joinTurn();
    const rows = this.stmt.all(params) as unknown[][];
    return this.build ? rows.map(this.build) : rows;
  }

  /** A reader's rows as arrays, in the order of `names` (undefined for a statement that keeps the driver's objects). */
  arrays(params: Params): unknown[][] | undefined {
    if (!this.build) return undefined;
    this.joinTurn();
    return this.stmt.all(params) as unknown[][];
  }

  run(params: Params): Database.RunResult {
    this.joinTurn();
    return this.stmt.run(params);
  }

  *iterate(params: Params): IterableIterator<unknown> {
    this.joinTurn();
    for (const row of this.stmt.iterate(params) as IterableIterator<unknown[]>) yield this.build ? this.build(row) : row;
  }

  private joinTurn(): void {
    if (this.onlyReads) this.turn?.enter();
    else this.turn?.leave();
  }
}

/** SQL texts at least this long (multi-row writes, long IN lists) are kept apart, bounded by their total length. */
const LONG_TEXT = 4000;
/**
 * Characters of long SQL texts kept prepared: a compiled statement holds 40-100 bytes of C memory
 * per character of its text (a 1000-row insert of 15 columns, 32 000 characters, 1.3 MB), and
 * bulk writes of every size and model each make their own texts; unbounded, a seeded medium data
 * set left hundreds of MB of them in the process. 200 000 characters keep the few long statements
 * of repeated bulk writes (about 10-20 MB).
 */
const LONG_TEXT_BUDGET = 200_000;

/**
 * better-sqlite3 re-prepares each statement: Kysely gets them from a bounded cache by SQL text
 * (transactions begin IMMEDIATE). Short texts: up to 2000 statements; long ones: least recently
 * used first out beyond LONG_TEXT_BUDGET characters.
 */
export function withStatementCache(db: Database.Database, turn?: ReadTurn): Database.Database {
  const cache = new Map<string, FastStatement>();
  const long = new LongStatements();
  const prepare = db.prepare.bind(db);
  return new Proxy(db, {
    get(target, prop, receiver) {
      if (prop !== 'prepare') {
        const value = Reflect.get(target, prop, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return (sql: string) => {
        // Writers take the write lock when their transaction begins: with several processes on
        // one file (WORKERS), a deferred transaction that read first could not upgrade and
        // would fail at once instead of waiting its turn (busy_timeout).
        const text = sql === 'begin' ? 'begin immediate' : sql;
        if (text.length >= LONG_TEXT) return long.get(text) ?? long.keep(text, new FastStatement(prepare(text), turn));
        let stmt = cache.get(text);
        if (!stmt) {
          if (cache.size > 2000) cache.clear();
          stmt = new FastStatement(prepare(text), turn);
          cache.set(text, stmt);
        }
        return stmt;
      };
    },
  });
}

/** Long statements by text, least recently used first out once their texts pass LONG_TEXT_BUDGET characters. */
class LongStatements {
  private readonly kept = new Map<string, FastStatement>();
  private chars = 0;

  get(text: string): FastStatement | undefined {
    const stmt = this.kept.get(text);
    if (stmt) {
      this.kept.delete(text);
      this.kept.set(text, stmt);
    }
    return stmt;
  }

  keep(text: string, stmt: FastStatement): FastStatement {
    this.kept.set(text, stmt);
    this.chars += text.length;
    for (const oldest of this.kept.keys()) {
      if (this.chars <= LONG_TEXT_BUDGET || oldest === text) break;
      this.kept.delete(oldest);
      this.chars -= oldest.length;
    }
    return stmt;
  }
}
