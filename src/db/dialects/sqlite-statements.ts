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

/** better-sqlite3 re-prepares each statement: Kysely gets them from a bounded cache by SQL text (transactions begin IMMEDIATE). */
export function withStatementCache(db: Database.Database, turn?: ReadTurn): Database.Database {
  const cache = new Map<string, FastStatement>();
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
