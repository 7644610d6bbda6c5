import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { toIsoMicro } from '../core/fields/scalar.js';
import type { Registry } from '../core/registry/registry.js';
import type { Row } from '../core/registry/types.js';
import type { Dialect } from './dialects/dialect.js';
import type { Store } from './store.js';

export type DefaultObject = Record<string, unknown> & { name: string; content_types?: string[] };

/** The objects a fresh database holds, by model id (src/db/defaults.json). */
export const DEFAULTS = JSON.parse(readFileSync(new URL('./defaults.json', import.meta.url), 'utf8')) as Record<string, DefaultObject[]>;

/**
 * Creates the objects a fresh database holds (default statuses, roles, the Global namespace)
 * when absent by name; objects users edited or deleted later are not re-created once seeded.
 */
export async function loadDefaults(dialect: Dialect, store: Store, registry: Registry): Promise<void> {
  const db = dialect.db;
  const seeded = await db.selectFrom('inventory_migrations').select('id').where('id', '=', 0).executeTakeFirst();
  if (seeded) return;
  await db.transaction().execute(async (trx) => {
    const now = toIsoMicro(new Date());
    for (const [modelId, objects] of Object.entries(DEFAULTS)) {
      const model = registry.find(modelId);
      if (!model) continue;
      const ctField = model.fields.find((fl) => fl.behaviour.relation === 'content_types');
      const links = new Map<string, string[]>();
      const rows: Row[] = [];
      for (const { content_types: types, ...values } of objects) {
        if ((await store.where(trx, model, { name: values.name })).length > 0) continue;
        const row = { id: randomUUID(), color: '9e9e9e', description: '', _custom_field_data: {}, created: now, last_updated: now, ...values } as Row;
        rows.push(Object.fromEntries(Object.entries(row).filter(([k]) => model.columns.some((c) => c.column === k))) as Row);
        links.set(row.id, types ?? []);
      }
      await store.insert(trx, model, rows);
      if (ctField) await store.setLinks(trx, model, ctField, links);
    }
    await trx.insertInto('inventory_migrations').values({ id: 0, name: 'default objects', applied: now }).execute();
  });
}
