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
 * - work that must follow the commit runs after this promise resolves.
 */
export function writeTransaction<T>(services: Services, model: ResolvedModel, fn: (trx: Exec) => Promise<T>): Promise<T> {
  const scopes = [...new Set(extensionsFor(services, model).flatMap((ext) => ext.writeLocks ?? []))].sort();
  return services.dialect.db.transaction().execute(async (trx) => {
    for (const scope of scopes) await services.dialect.lockScope(trx, scope);
    return fn(trx);
  });
}
