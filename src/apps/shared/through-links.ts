/**
 * Read-only to-many fields backed by an assignment model (prefix `locations` and `vrfs`, VRF
 * `prefixes`, VLAN `locations`, IP address `interfaces`): the assignment rows are the truth,
 * and the fields' link tables are rebuilt from them inside the same transaction whenever
 * assignments are written or deleted, so reads and filters stay generic (one query per page).
 */
import { chunk } from '../../db/store.js';
import type { Exec } from '../../db/store.js';
import type { ModelExtensions } from '../../ops/extensions.js';
import type { Services } from '../../ops/services.js';

/** One mirrored field: `owner.field` lists `targetFk` of the assignments whose `ownerFk` is the owner. */
export type ThroughLink = { owner: string; field: string; ownerFk: string; targetFk: string };

/** Called after the links of some owners were rebuilt: owner id -> target ids (sorted). */
export type AfterSync = (ctx: { services: Services; exec: Exec; link: ThroughLink; links: Map<string, string[]> }) => Promise<void>;

/** Rebuilds `link` for the given owners from the assignment table; returns the new links. */
export async function syncThroughLinks(services: Services, exec: Exec, through: string, link: ThroughLink, ownerIds: string[]): Promise<Map<string, string[]>> {
  const model = services.registry.get(through);
  const owner = services.registry.get(link.owner);
  const ownerCol = model.fieldMap.get(link.ownerFk)?.column as string;
  const targetCol = model.fieldMap.get(link.targetFk)?.column as string;
  const links = new Map<string, string[]>(ownerIds.map((id) => [id, []]));
  for (const part of chunk([...new Set(ownerIds)])) {
    const rows = await exec.selectFrom(model.table).select([`${ownerCol} as owner`, `${targetCol} as target`]).where(ownerCol, 'in', part).where(targetCol, 'is not', null).execute();
    for (const r of rows) links.get(String(r.owner))?.push(String(r.target));
  }
  for (const list of links.values()) list.sort();
  await services.store.setLinks(exec, owner, owner.fieldMap.get(link.field)!, links);
  return links;
}

function ownerIdsOf(rows: Record<string, unknown>[], column: string): string[] {
  return rows.map((r) => r[column]).filter((v): v is string => typeof v === 'string');
}

/**
 * Extensions of an assignment model that keep the mirrored fields in step: after its rows
 * are written (old and new owners) or deleted (including by cascade).
 */
export function mirrorThrough(through: string, links: ThroughLink[], after?: AfterSync): ModelExtensions {
  const sync = async (services: Services, exec: Exec, rows: Record<string, unknown>[]) => {
    const model = services.registry.get(through);
    for (const link of links) {
      const column = model.fieldMap.get(link.ownerFk)?.column as string;
      const synced = await syncThroughLinks(services, exec, through, link, ownerIdsOf(rows, column));
      await after?.({ services, exec, link, links: synced });
    }
  };
  return {
    afterWrite: ({ services, exec, plans }) => sync(services, exec, plans.flatMap((p) => [p.row, ...(p.before ? [p.before] : [])])),
    afterDelete: ({ services, exec, rows }) => sync(services, exec, rows),
  };
}
