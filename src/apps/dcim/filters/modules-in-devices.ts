import { sql } from 'kysely';
import type { Exec } from '../../../db/store.js';
import type { Registry } from '../../../core/registry/registry.js';

/**
 * How many modules deep the reference looks below a device: a module in a device's bay is one
 * deep, a module in that module's bay two (nautobot/dcim/constants.py MODULE_RECURSION_DEPTH_LIMIT).
 */
export const MODULE_DEPTH_LIMIT = 4;

/** What `findDeviceModules` found: the chassis members asked for, and the modules below each device. */
export type DeviceModules = { members: string[]; modules: Map<string, string[]> };

/**
 * In one statement, whatever the devices hold: the modules installed in each of the devices
 * (and, with `withMembers`, in each member of a virtual chassis one of them masters), in their
 * bays or in bays of modules in them down to `depth` (MODULE_DEPTH_LIMIT: the reference's
 * `Device.all_modules`), and those members.
 */
export async function findDeviceModules(exec: Exec, registry: Registry, devices: string[], opts: { depth: number; withMembers?: boolean }): Promise<DeviceModules> {
  const out: DeviceModules = { members: [], modules: new Map() };
  if (devices.length === 0) return out;
  const t = (id: string) => sql.table(registry.get(id).table);
  const [module, bay, device, chassis] = [t('dcim.module'), t('dcim.modulebay'), t('dcim.device'), t('dcim.virtualchassis')];
  const ids = sql.join(devices);
  const members = sql`SELECT d.id FROM ${device} AS d WHERE d.virtual_chassis_id IN (SELECT c.id FROM ${chassis} AS c WHERE c.master_id IN (${ids}))`;
  const seed = opts.withMembers ? sql`b.parent_device_id IN (${ids}) OR b.parent_device_id IN (${members})` : sql`b.parent_device_id IN (${ids})`;
  const result = await sql<{ kind: string; id: unknown; root: unknown }>`
    WITH RECURSIVE below(id, root, depth) AS (
      SELECT m.id, b.parent_device_id, 1 FROM ${module} AS m JOIN ${bay} AS b ON m.parent_module_bay_id = b.id WHERE ${seed}
      UNION ALL
      SELECT m.id, below.root, below.depth + 1 FROM below JOIN ${bay} AS b ON b.parent_module_id = below.id JOIN ${module} AS m ON m.parent_module_bay_id = b.id WHERE below.depth < ${sql.lit(opts.depth)}
    )
    SELECT 'module' AS kind, id, root FROM below
    ${opts.withMembers ? sql`UNION ALL SELECT 'member' AS kind, id, NULL AS root FROM (${members}) AS vc` : sql``}`.execute(exec);
  for (const row of result.rows) {
    if (row.kind === 'member') out.members.push(String(row.id));
    else out.modules.set(String(row.root), [...(out.modules.get(String(row.root)) ?? []), String(row.id)]);
  }
  return out;
}

/** The modules below any of `devices` in what `findDeviceModules` found. */
export function modulesOf(found: DeviceModules, devices: string[]): string[] {
  return devices.flatMap((d) => found.modules.get(d) ?? []);
}
