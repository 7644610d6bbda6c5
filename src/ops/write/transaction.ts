import { extensionsFor } from '../extensions.js';
import type { Exec } from '../../db/store.js';
import type { ResolvedModel } from '../../core/registry/types.js';
import type { Services } from '../services.js';

/**
 * Opens the write transaction of `model`: the one place writes of the API (ops/crud.ts), events
 * and jobs begin. The discipline every part follows is written where it is enforced,
 * db/dialects/transaction-guard.ts; in short:
 *
 * - everything inside `fn` goes through `trx` (pass it down as `exec`); the root handle
 *   (`services.dialect.db`) throws `TransactionEscapeError` there;
 * - the model's write locks (`ModelExtensions.writeLocks`, dialect.lockScope) are taken first,
 *   in name order, before any row is read or locked;
 * - rows read to be changed are read with `dialect.lockForUpdate` (ops/read.ts `getRow` does it
 *   for `change` and `delete`), so a merge never works on a stale row;
 * - work that must follow the commit runs after this promise resolves; the listeners of
 *   `services.committed` are called then (events recorded in the outbox are delivered from there);
 * - a run that lost a race (a unique index, a deadlock: dialect.errorKind) runs again, up to
 *   three times, so `fn` must hold no state of its own between runs (it reads what it needs).
 */
export async function writeTransaction<T>(services: Services, model: ResolvedModel, fn: (trx: Exec) => Promise<T>): Promise<T> {
  const scopes = [...new Set(extensionsFor(services, model).flatMap((ext) => ext.writeLocks ?? []))].sort();
  for (let attempt = 1; ; attempt += 1) {
    try {
      const result = await services.dialect.db.transaction().execute(async (trx) => {
        for (const scope of scopes) await services.dialect.lockScope(trx, scope);
        return fn(trx);
      });
      announceCommit(services);
      return result;
    } catch (err) {
      if (attempt >= ATTEMPTS || !isWorthRetrying(services, err)) throw err;
    }
  }
}

/** Tells the listeners a write committed; a listener's failure is not the write's. */
function announceCommit(services: Services): void {
  for (const listener of services.committed) {
    try {
      listener();
    } catch {
      // listeners only schedule work of their own
    }
  }
}

/** Runs of a write that lost a race: the next one sees the winner's rows (and answers as the reference would, e.g. a 400 for a duplicate name). */
const ATTEMPTS = 3;

function isWorthRetrying(services: Services, err: unknown): boolean {
  const kind = services.dialect.errorKind(err)?.kind;
  return kind === 'unique_violation' || kind === 'write_conflict';
}
