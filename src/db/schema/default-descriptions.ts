import { DEFAULTS } from '../load-defaults.js';
import type { Dialect } from '../dialects/dialect.js';
import type { Registry } from '../../core/registry/registry.js';

/**
 * Gives the default objects a database seeded by an older build holds (statuses, roles) the
 * descriptions defaults.json now carries, the reference's: only where the description is still
 * empty, so a description a user wrote stays.
 */
export async function fillDefaultDescriptions(dialect: Dialect, registry: Registry): Promise<void> {
  await dialect.db.transaction().execute(async (trx) => {
    for (const [modelId, objects] of Object.entries(DEFAULTS)) {
      const model = registry.find(modelId);
      if (!model?.fieldMap.get('description')?.column) continue;
      for (const { name, description } of objects) {
        if (typeof description !== 'string' || description === '') continue;
        await trx.updateTable(model.table).set({ description }).where('name', '=', name).where('description', '=', '').execute();
      }
    }
  });
}
