import type Database from 'better-sqlite3';
import { compileRowBuilder } from '../row-builder.js';
import type { RowBuilder } from '../row-builder.js';
import type { ReadTurn } from './sqlite-read-turn.js';
import { inHousekeeping } from './dialect.js';
import { packInLists, planInLists } from './sqlite-in-lists.js';
import type { InListPlan } from './sqlite-in-lists.js';

type Params = unknown[];

/** Row changes made inside `housekeeping` on one connection, which its write generation leaves out. */
export type HousekeepingTally = { changes: number };

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

  constructor(private readonly stmt: Database.Statement, private readonly turn?: ReadTurn, private readonly tally?: HousekeepingTally) {
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
    const result = this.stmt.run(params);
    // Counted in the same synchronous step as the change, so no reader of the generation sees it in between.
    if (result.changes > 0 && this.tally && inHousekeeping()) this.tally.changes += result.changes;
    return result;
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

/** The interface Kysely's SQLite driver and the dialect's reads use of a prepared statement. */
export type Prepared = Pick<FastStatement, 'reader' | 'names' | 'all' | 'arrays' | 'run' | 'iterate'>;

/**
 * A statement with IN-lists, run as its rewritten text with each list as one JSON parameter
 * (sqlite-in-lists.ts), shared by the texts of every list length; as written (prepared on first
 * need) when a list holds a value JSON cannot carry.
 */
class InListStatement implements Prepared {
  readonly reader: boolean;
  readonly names?: readonly string[];
  private written?: FastStatement;

  constructor(private readonly packed: FastStatement, private readonly plan: InListPlan, private readonly prepareWritten: () => FastStatement) {
    this.reader = packed.reader;
    this.names = packed.names;
  }

  all(params: Params): unknown[] {
    const packed = packInLists(this.plan, params);
    return packed ? this.packed.all(packed) : this.asWritten().all(params);
  }

  arrays(params: Params): unknown[][] | undefined {
    const packed = packInLists(this.plan, params);
    return packed ? this.packed.arrays(packed) : this.asWritten().arrays(params);
  }

  run(params: Params): Database.RunResult {
    const packed = packInLists(this.plan, params);
    return packed ? this.packed.run(packed) : this.asWritten().run(params);
  }

  iterate(params: Params): IterableIterator<unknown> {
    const packed = packInLists(this.plan, params);
    return packed ? this.packed.iterate(packed) : this.asWritten().iterate(params);
  }

  private asWritten(): FastStatement {
    return (this.written ??= this.prepareWritten());
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
 * Characters of short SQL texts kept prepared. Counted by number alone (2000 statements), they
 * were bounded by nothing in bytes: seeding the medium data set prepares about 1 000 short texts
 * of 1 060 000 characters (its bulk writes' partial batches; a multi-row insert holds about 40
 * bytes of compiled statement per character, a select about 20), all kept. The bench's reads,
 * mixed load and exports use about 590 texts of 140 000 characters: the budget keeps them twice over.
 */
const SHORT_TEXT_BUDGET = 300_000;

/**
 * better-sqlite3 re-prepares each statement: Kysely gets them from a cache by SQL text
 * (transactions begin IMMEDIATE), least recently used first out beyond a budget of characters
 * of text: one for short texts, one for long ones, so bulk writes' long texts never push out the
 * statements of reads. A text with IN-lists is kept as its rewritten text (one statement for
 * every list length, sqlite-in-lists.ts) and a small wrapper under its own text.
 */
export function withStatementCache(db: Database.Database, turn?: ReadTurn, tally?: HousekeepingTally): Database.Database {
  const short = new StatementsByText(SHORT_TEXT_BUDGET);
  const long = new StatementsByText(LONG_TEXT_BUDGET);
  const prepare = db.prepare.bind(db);
  const cacheOf = (text: string) => (text.length >= LONG_TEXT ? long : short);
  const fresh = (text: string) => new FastStatement(prepare(text), turn, tally);
  /** A text met for the first time: prepared as it is, or as its IN-lists' rewritten text (shared by every length). */
  const first = (text: string): Prepared => {
    const plan = planInLists(text);
    if (!plan) return cacheOf(text).keep(text, fresh(text));
    const rewritten = cacheOf(plan.text);
    const packed = (rewritten.get(plan.text) ?? rewritten.keep(plan.text, fresh(plan.text))) as FastStatement;
    return cacheOf(text).keep(text, new InListStatement(packed, plan, () => fresh(text)));
  };
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
        return cacheOf(text).get(text) ?? first(text);
      };
    },
  });
}

/** Statements by text, least recently used first out once their texts pass `budget` characters. */
class StatementsByText {
  private readonly kept = new Map<string, Prepared>();
  private chars = 0;

  constructor(private readonly budget: number) {}

  get(text: string): Prepared | undefined {
    const stmt = this.kept.get(text);
    if (stmt) {
      this.kept.delete(text);
      this.kept.set(text, stmt);
    }
    return stmt;
  }

  keep(text: string, stmt: Prepared): Prepared {
    this.kept.set(text, stmt);
    this.chars += text.length;
    for (const oldest of this.kept.keys()) {
      if (this.chars <= this.budget || oldest === text) break;
      this.kept.delete(oldest);
      this.chars -= oldest.length;
    }
    return stmt;
  }
}
