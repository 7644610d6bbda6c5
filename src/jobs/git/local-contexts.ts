import path from 'node:path';
import { persist } from '../../ops/write/persist.js';
import { filesIn, readDataFile, readEach } from './contents.js';
import type { Row } from '../../core/registry/types.js';
import type { Exec } from '../../db/store.js';
import type { RequestContext, Services } from '../../ops/services.js';
import type { ContentRead } from './contents.js';
import type { OwnedOutcome } from './owned.js';

/** `config_contexts/devices/<name>.*` and `config_contexts/virtual_machines/<name>.*`: a device's or VM's local context data. */
const LOCAL_TYPES = { devices: 'dcim.device', virtual_machines: 'virtualization.virtualmachine' } as const;
type LocalType = keyof typeof LOCAL_TYPES;

/** Local config contexts of a working copy; an item's key is `<local type>/<object name>`, its input the data. */
export function readLocalContexts(folder: string): ContentRead {
  const out: ContentRead = { items: [], errors: [] };
  for (const localType of Object.keys(LOCAL_TYPES)) {
    const dir = path.join(folder, 'config_contexts', localType);
    const read = readEach(filesIn(dir).map((f) => ({ file: path.join(dir, f), shown: `${localType}/${f}` })), (file) => {
      const data = readDataFile(file);
      if (!data || typeof data !== 'object' || Array.isArray(data)) throw new Error('data must be a dict');
      return [{ key: `${localType}/${path.basename(file, path.extname(file))}`, input: data as Record<string, unknown> }];
    }, (shown, message) => `Error in loading local config context from \`${shown}\`: ${message}`);
    out.items.push(...read.items);
    out.errors.push(...read.errors);
  }
  return out;
}

const OWNER = { local_config_context_data_owner_content_type: 'extras.gitrepository' };

/**
 * Sets the local context data the repository provides on the named devices and VMs, and clears
 * it on those it provided before and no longer does (in the caller's transaction). A name that
 * matches no object or several, or an object whose data another owner holds, throws.
 */
export async function applyLocalContexts(services: Services, trx: Exec, rc: RequestContext, ownerId: string, items: ContentRead['items']): Promise<OwnedOutcome[]> {
  const out: OwnedOutcome[] = [];
  for (const [localType, modelName] of Object.entries(LOCAL_TYPES) as [LocalType, string][]) {
    const model = services.registry.get(modelName);
    const wanted = items.filter((i) => i.key.startsWith(`${localType}/`));
    const names = wanted.map((i) => i.key.slice(localType.length + 1));
    const byName = new Map<string, Row[]>();
    if (names.length > 0) for (const row of (await trx.selectFrom(model.table).selectAll().where('name', 'in', names).execute()).map((r) => services.store.decode(model, r))) byName.set(String(row.name), [...(byName.get(String(row.name)) ?? []), row]);
    for (const [k, item] of wanted.entries()) {
      const found = byName.get(names[k]) ?? [];
      const where = `Error in loading local config context from \`${item.key}\``;
      if (found.length !== 1) throw new Error(`${where}: ${found.length ? 'multiple records with the same name found; unable to determine which one to apply to!' : 'record not found!'}`);
      const row = found[0];
      if (row.local_config_context_data_owner_object_id && row.local_config_context_data_owner_object_id !== ownerId) throw new Error(`${where}: DATA CONFLICT: Local context data is owned by another owner`);
      if (row.local_config_context_data_owner_object_id === ownerId && JSON.stringify(row.local_config_context_data) === JSON.stringify(item.input)) {
        out.push({ grouping: 'local config contexts', level: 'info', message: 'No change to local config context', object: row });
        continue;
      }
      await persist(services, trx, rc, model, [{ input: { local_config_context_data: item.input, ...OWNER, local_config_context_data_owner_object_id: ownerId }, before: row }], { partial: true, asList: false });
      out.push({ grouping: 'local config contexts', level: 'info', message: 'Successfully updated local config context', object: row });
    }
    const stale = (await trx.selectFrom(model.table).selectAll().where('local_config_context_data_owner_object_id', '=', ownerId).execute()).map((r) => services.store.decode(model, r)).filter((row) => !names.includes(String(row.name)));
    for (const row of stale) {
      await persist(services, trx, rc, model, [{ input: { local_config_context_data: null, local_config_context_data_owner_content_type: null, local_config_context_data_owner_object_id: null }, before: row }], { partial: true, asList: false });
      out.push({ grouping: 'local config contexts', level: 'warning', message: 'Deleted local config context', object: row });
    }
  }
  return out;
}
