import { normalizeMac } from '../../core/fields/mac.js';
import { Store } from '../store.js';
import type { Dialect } from '../dialects/dialect.js';
import type { Registry } from '../../core/registry/registry.js';

/**
 * Rewrites MAC addresses stored as they were sent (before the mac_address kind) in the canonical
 * form (`AA:BB:CC:DD:EE:FF`); a value that reads as no MAC address is kept as it is.
 */
export async function normalizeMacAddresses(dialect: Dialect, registry: Registry): Promise<void> {
  const store = new Store(dialect);
  await dialect.db.transaction().execute(async (trx) => {
    for (const model of registry.models) {
      for (const field of model.columns.filter((f) => f.kind === 'mac_address')) {
        const column = field.column as string;
        const rows = (await trx.selectFrom(model.table).select(['id', column]).where(column, '!=', '').execute()) as Record<string, unknown>[];
        const changes = rows.flatMap((r) => {
          const mac = normalizeMac(String(r[column]));
          return mac && mac !== r[column] ? [{ id: String(r.id), values: { [column]: mac } }] : [];
        });
        await store.updateMany(trx, model, changes);
      }
    }
  });
}
