import { CompiledQuery } from 'kysely';
import type pg from 'pg';
import type { DatabaseConnection, Dialect as KyselyDialect, Driver, QueryCompiler, QueryResult, TransactionSettings } from 'kysely';

/** Microtask hops during which statements join the batch the first of them opened. */
const JOIN_HOPS = 4;

/** Calls `close` after `hops` microtask hops: within the microtask queue of the current callback. */
function closeAfterHops(close: () => void, hops: number): void {
  queueMicrotask(() => (hops > 1 ? closeAfterHops(close, hops - 1) : close()));
}

/**
 * A batch of statements on one pooled client. `closed`: no statement joins any more; `sent`: its
 * socket is uncorked. The client goes back to the pool when both hold and no statement is in flight.
 */
type Batch = { client: Promise<pg.PoolClient>; users: number; closed: boolean; sent: boolean };

/**
 * Statements outside a transaction that start together share one pooled connection and go out in
 * one write (issue 22): a page's count and rows, a wave's reads of several models. "Together" is
 * a few microtask hops from the first (`JOIN_HOPS`), never beyond the current callback's microtask
 * queue: statements of two requests never share a batch, because a shared connection runs its
 * statements one after the other and a slow one (up to STATEMENT_TIMEOUT_MS) would hold up the
 * other request's (measured: a 0.5 s regex filter beside detail GETs on one connection took their
 * p99 from 0.4-0.6 s to 1.2 s). The pool's clients run in pg's pipeline mode,
 * so the statements are sent one after the other without waiting for each answer, each with its
 * own Sync: each still runs in its own implicit transaction and fails alone, as on a connection of
 * its own. Before, each took a connection and a round trip of its own: a write to the server, a
 * wake-up of its backend and a read of the answer, each dearer in CPU (service and server) than
 * most of our statements' own work.
 */
export class SharedReads {
  private open: Batch | null = null;

  constructor(private readonly pool: pg.Pool) {}

  /** Runs a statement on the batch of this turn (opening one when none is open); `rowMode` 'array': rows as arrays. */
  async query(text: string, values: unknown[], rowMode?: 'array'): Promise<pg.QueryResult> {
    const batch = this.open ?? this.start();
    batch.users += 1;
    let client: pg.PoolClient | undefined;
    try {
      client = await batch.client;
      return await (rowMode ? client.query({ text, values, rowMode }) : client.query(text, values));
    } finally {
      batch.users -= 1;
      if (client && batch.users === 0 && batch.closed && batch.sent) client.release();
    }
  }

  /**
   * A batch that statements join for `JOIN_HOPS` microtask hops (the siblings of a Promise.all,
   * each after an await or two of its own). Its client's socket is corked from when it is had to
   * the end of that turn (setImmediate), so what the batch's statements write leaves in one write.
   */
  private start(): Batch {
    const batch: Batch = { client: Promise.resolve(undefined as unknown as pg.PoolClient), users: 0, closed: false, sent: false };
    this.open = batch;
    closeAfterHops(() => this.close(batch), JOIN_HOPS);
    batch.client = this.pool.connect().then((client) => {
      const stream = (client as unknown as { connection: { stream: { cork(): void; uncork(): void } } }).connection.stream;
      stream.cork();
      setImmediate(() => {
        this.close(batch);
        batch.sent = true;
        stream.uncork();
        if (batch.users === 0) client.release();
      });
      return client;
    }, (err: unknown) => {
      this.close(batch);
      throw err;
    });
    return batch;
  }

  private close(batch: Batch): void {
    batch.closed = true;
    if (this.open === batch) this.open = null;
  }
}

/** A statement's result as Kysely's PostgreSQL connection gives it. */
function toQueryResult<R>(result: pg.QueryResult): QueryResult<R> {
  const { command, rowCount, rows } = result;
  const changes = command === 'INSERT' || command === 'UPDATE' || command === 'DELETE' || command === 'MERGE';
  return { numAffectedRows: changes ? BigInt(rowCount ?? 0) : undefined, rows: (rows ?? []) as R[] };
}

/**
 * A connection handed out before Kysely says what it is for: its statements go to the shared
 * batches until a transaction begins on it, which takes a connection of the pool of its own
 * (`own`) for the transaction's statements, released with it.
 */
class LazyConnection implements DatabaseConnection {
  own: DatabaseConnection | undefined;

  constructor(private readonly shared: SharedReads) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.own) return this.own.executeQuery<R>(query);
    return toQueryResult<R>(await this.shared.query(query.sql, [...query.parameters]));
  }

  streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported on PostgreSQL (no cursor configured)');
  }
}

/** Kysely's PostgreSQL driver, with connections outside transactions made lazy (`LazyConnection`). */
class SharingDriver implements Driver {
  constructor(private readonly inner: Driver, private readonly shared: SharedReads) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  acquireConnection(): Promise<DatabaseConnection> {
    return Promise.resolve(new LazyConnection(this.shared));
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const lazy = connection as LazyConnection;
    lazy.own = await this.inner.acquireConnection();
    await this.inner.beginTransaction(lazy.own, settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(ownOf(connection));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(ownOf(connection));
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.savepoint?.(ownOf(connection), name, compile);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.rollbackToSavepoint?.(ownOf(connection), name, compile);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.releaseSavepoint?.(ownOf(connection), name, compile);
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const lazy = connection as LazyConnection;
    if (lazy.own) await this.inner.releaseConnection(lazy.own);
    lazy.own = undefined;
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

function ownOf(connection: DatabaseConnection): DatabaseConnection {
  const own = (connection as LazyConnection).own;
  if (!own) throw new Error('no transaction is open on this connection');
  return own;
}

/** `inner` (Kysely's PostgresDialect) with statements outside transactions batched per turn on one connection (`shared`). */
export function sharingReads(inner: KyselyDialect, shared: SharedReads): KyselyDialect {
  return {
    createAdapter: () => inner.createAdapter(),
    createDriver: () => new SharingDriver(inner.createDriver(), shared),
    createIntrospector: (db) => inner.createIntrospector(db),
    createQueryCompiler: () => inner.createQueryCompiler(),
  };
}
