import { Store } from '../store.js';
import type { Dialect } from '../dialects/dialect.js';
import type { Registry } from '../../core/registry/registry.js';

const BATCH = 1000;

/**
 * Fills the natural-order key columns (AuthoredField `naturalize`) of rows written before the
 * columns existed: every row of every such model, rewritten with its source text, which makes
 * the store derive the key. Runs in batches by id, in one transaction.
 */
export async function fillNaturalOrderKeys(dialect: Dialect, registry: Registry): Promise<void> {
  const store = new Store(dialect);
  await dialect.db.transaction().execute(async (trx) => {
    for (const model of registry.models) {
      const sources = [...new Set(model.columns.flatMap((f) => (f.naturalize ? [model.fieldMap.get(f.naturalize.from)?.column as string] : [])))];
      if (sources.length === 0) continue;
      let last: string | null = null;
      for (;;) {
        let query = trx.selectFrom(model.table).select(['id', ...sources]).orderBy('id').limit(BATCH);
        if (last !== null) query = query.where('id', '>', last);
        const rows = (await query.execute()) as Record<string, unknown>[];
        if (rows.length === 0) break;
        const changes = rows.map((r) => ({ id: String(r.id), values: Object.fromEntries(sources.map((c) => [c, r[c]])) }));
        await store.updateMany(trx, model, changes);
        last = String(rows[rows.length - 1].id);
      }
    }
  });
}
