import { Kysely } from 'kysely';
import { ScopedStorage } from '../../core/scoped-storage.js';
import { TransactionEscapeError } from '../../core/errors.js';
import type { DatabaseConnection, Dialect as KyselyDialect, Driver, KyselyConfig, QueryCompiler, TransactionBuilder, TransactionSettings } from 'kysely';

/**
 * # Transaction discipline (every part follows it: ops, apps, events, jobs, UI)
 *
 * 1. A write runs in ONE transaction opened on the root handle (`services.dialect.db`) with
 *    `db.transaction().execute(async (trx) => ...)` (ops/crud.ts `transaction` does it for the
 *    generic writes). Everything the write reads or writes goes through `trx`: operations take
 *    the handle as a parameter (`exec: Exec`) and never default it to the root handle.
 * 2. Nothing that runs inside the callback may use the root handle, directly or through a helper
 *    that reaches for it (`services.dialect.db`, a memo loader, `dialect.listTables()`...). On
 *    SQLite there is one connection: such a statement would wait for the transaction that waits
 *    for it, and every later request with them (issue 17: one PATCH by natural key froze the
 *    service). On PostgreSQL it takes a second pooled connection per request, outside the
 *    transaction (it does not see the write's own rows), and ten such requests exhaust the pool.
 * 3. This is enforced, not only asked: the root handle is a `GuardedKysely`. Its `transaction()`
 *    marks the async context it runs in; once the transaction has begun, any request of that
 *    context (the callback and everything it awaits or starts) for another connection of the
 *    root handle, including a nested `transaction()`, throws `TransactionEscapeError`
 *    (INV_ERR_TRANSACTION_ESCAPE, a 500) at once, on both databases, instead of hanging or
 *    leaking. Tests that drive every write path turn any regression red. The check sits in the
 *    driver, so handles derived from the root one (`withPlugin`, `introspection`) are checked
 *    too; a transaction that did not come through the root's `transaction()` (a derived
 *    handle's, `startTransaction()`) is refused, as it could not be marked. Raw pool access in a
 *    dialect calls `assertOutsideTransaction()`.
 * 4. Work that must follow the commit (deliveries, cache refreshes) runs after `execute()`
 *    resolves; the mark is cleared at commit and at rollback, so that code may use the root
 *    handle again.
 * 5. Row locks: a write that reads a row to merge into it (PATCH of custom fields, a user's
 *    config) reads it with `lockForUpdate` (FOR UPDATE on PostgreSQL; SQLite transactions
 *    begin IMMEDIATE, so writers are already serialized); hierarchy maintenance takes the
 *    dialect's `lockScope` (see dialect.ts).
 */

/** One transaction opened through the root handle, as seen by the async context that opened it. */
type Scope = { open: boolean };

/** Enabled only while a transaction runs (core/scoped-storage.ts: no promise hooks for reads). */
const scopes = new ScopedStorage<Scope>();

/** Whether the current async context is inside a transaction of a guarded handle. */
export function insideTransaction(): boolean {
  return scopes.getStore()?.open === true;
}

/** Throws when the current async context is inside a guarded transaction (for raw pool access). */
export function assertOutsideTransaction(): void {
  if (insideTransaction()) throw new TransactionEscapeError();
}

/** The dialect's driver, with every connection request checked against the caller's open transaction. */
class GuardedDriver implements Driver {
  /** Connections acquired and not released yet (SQLite's one connection: whether it is in use). */
  busy = 0;

  constructor(private readonly inner: Driver) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  // Not async: every statement asks for a connection, and the check needs no promise of its own
  // (Kysely awaits this call inside an async function, so a throw still rejects). The count
  // moves only once the connection is had (a failed acquire holds none).
  acquireConnection(): Promise<DatabaseConnection> {
    assertOutsideTransaction();
    return this.inner.acquireConnection().then((connection) => {
      this.busy += 1;
      return connection;
    });
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const scope = scopes.getStore();
    // A handle derived from the root one (withPlugin, introspection...) shares this driver but
    // not the root's `transaction()`: its transactions would go unmarked, so they are refused.
    if (!scope) throw new Error('A transaction must be opened with the root handle\'s transaction().execute() (db/dialects/transaction-guard.ts)');
    await this.inner.beginTransaction(connection, settings);
    scope.open = true;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await this.inner.commitTransaction(connection);
    } finally {
      this.close();
    }
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await this.inner.rollbackTransaction(connection);
    } finally {
      this.close();
    }
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.savepoint?.(connection, name, compile);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.rollbackToSavepoint?.(connection, name, compile);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.releaseSavepoint?.(connection, name, compile);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    this.busy -= 1;
    return this.inner.releaseConnection(connection);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }

  private close(): void {
    const scope = scopes.getStore();
    if (scope) scope.open = false;
  }
}

function guardDialect(inner: KyselyDialect, made: { driver?: GuardedDriver }): KyselyDialect {
  return {
    createAdapter: () => inner.createAdapter(),
    createDriver: () => (made.driver = new GuardedDriver(inner.createDriver())),
    createIntrospector: (db) => inner.createIntrospector(db),
    createQueryCompiler: () => inner.createQueryCompiler(),
  };
}

/** A transaction builder whose `execute` runs in a scope of its own (settings keep the wrapper). */
function scoped(builder: TransactionBuilder<any>): TransactionBuilder<any> {
  const wrapper = {
    setAccessMode: (mode: Parameters<TransactionBuilder<any>['setAccessMode']>[0]) => scoped(builder.setAccessMode(mode)),
    setIsolationLevel: (level: Parameters<TransactionBuilder<any>['setIsolationLevel']>[0]) => scoped(builder.setIsolationLevel(level)),
    execute: <T>(fn: Parameters<TransactionBuilder<any>['execute']>[0]) => {
      // A nested transaction would wait for a connection its own caller holds.
      assertOutsideTransaction();
      return scopes.run({ open: false }, () => builder.execute(fn)) as Promise<T>;
    },
  };
  return wrapper as unknown as TransactionBuilder<any>;
}

/** The root database handle (see the discipline above). */
export class GuardedKysely extends Kysely<any> {
  readonly #made: { driver?: GuardedDriver };

  constructor(config: KyselyConfig) {
    const made: { driver?: GuardedDriver } = {};
    super({ ...config, dialect: guardDialect(config.dialect, made) });
    this.#made = made;
  }

  /** Whether no connection of this handle is in use: no statement running, no transaction open (on any async context). */
  get connectionsIdle(): boolean {
    return (this.#made.driver?.busy ?? 0) === 0;
  }

  override transaction(): TransactionBuilder<any> {
    return scoped(super.transaction());
  }

  override startTransaction(): never {
    throw new Error('startTransaction() escapes the transaction guard: use transaction().execute()');
  }
}
