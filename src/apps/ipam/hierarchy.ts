/**
 * The prefix / IP address hierarchy, kept by the service inside the write's transaction
 * (catalogue ipam.prefix validation): creating, resizing or moving a prefix adopts what now
 * fits under it and releases what no longer does; deleting one hands its children to the
 * closest remaining prefix, and is refused (409) when an IP address would be left without one.
 */
import { ConflictError, ValidationError } from '../../core/errors.js';
import { formatAddress } from '../../core/ip/index.js';
import { chunk } from '../../db/store.js';
import { addressOf, prefixOf, T } from './net.js';
import { carrySubtree, isNamespaceMove } from './namespace-move.js';
import { findClosestParents } from './parents.js';
import { refreshIpVrfs } from './vrf-of-ip.js';
import type { Exec } from '../../db/store.js';
import type { Row } from '../../core/registry/types.js';
import type { DeleteHookContext, WriteHookContext } from '../../ops/extensions.js';
import type { Services } from '../../ops/services.js';
import type { Placement } from './parents.js';

/** A prefix row as a placement: it needs a strictly shorter containing prefix. */
export function prefixPlacement(row: Row): Placement {
  const net = prefixOf(row);
  return { key: row.id, namespaceId: String(row.namespace_id), version: net.version, first: net.network, last: net.broadcast, maxLength: net.prefixLength - 1 };
}

/** An IP address row as a placement: any prefix containing its host, whatever the mask. */
export function hostPlacement(row: Row, namespaceId: string): Placement {
  const net = addressOf(row);
  return { key: row.id, namespaceId, version: net.version, first: net.host, last: net.host, maxLength: net.version === 4 ? 32 : 128 };
}

async function setParents(exec: Exec, table: string, changes: Map<string, string | null>): Promise<void> {
  const byParent = new Map<string | null, string[]>();
  for (const [id, parent] of changes) byParent.set(parent, [...(byParent.get(parent) ?? []), id]);
  for (const [parent, ids] of byParent) {
    for (const part of chunk(ids)) await exec.updateTable(table).set({ parent_id: parent }).where('id', 'in', part).execute();
  }
}

/**
 * Recomputes the parent of the given prefixes and IP addresses (ignoring prefixes in
 * `exclude`) and stores the ones that changed. IP addresses left with no containing prefix
 * keep their row untouched and are returned as orphans for the caller to refuse.
 */
export async function reparent(services: Services, exec: Exec, opts: { prefixIds: string[]; ipIds: string[]; exclude?: ReadonlySet<string> }): Promise<{ orphans: Row[] }> {
  const exclude = opts.exclude ?? new Set<string>();
  const prefixes = (await services.store.byIds(exec, services.registry.get('ipam.prefix'), opts.prefixIds)).filter((r) => !exclude.has(r.id));
  const ips = await services.store.byIds(exec, services.registry.get('ipam.ipaddress'), opts.ipIds);
  const found = await findClosestParents(exec, [...prefixes.map(prefixPlacement), ...ips.map((r) => hostPlacement(r, String(r.namespace_id)))], exclude);
  const prefixChanges = new Map(prefixes.filter((r) => found.get(r.id) !== r.parent_id).map((r) => [r.id, found.get(r.id) ?? null]));
  await setParents(exec, T.prefix, prefixChanges);
  const orphans = ips.filter((r) => !found.get(r.id));
  const ipChanges = new Map(ips.filter((r) => found.get(r.id) && found.get(r.id) !== r.parent_id).map((r) => [r.id, found.get(r.id) as string]));
  await setParents(exec, T.ip, ipChanges);
  await refreshIpVrfs(exec, { ipIds: [...ipChanges.keys()] });
  return { orphans };
}

/** Ids of `table` rows matching a predicate builder (small helper for the candidate sets). */
async function ids(query: Promise<{ id: unknown }[]>): Promise<string[]> {
  return (await query).map((r) => String(r.id));
}

/** True when the write moved the prefix (network, length or namespace), or created it. */
export function hasMoved(row: Row, before: Row | undefined): boolean {
  return !before || before.network !== row.network || before.prefix_length !== row.prefix_length || before.namespace_id !== row.namespace_id;
}

/** Prefixes and IPs that may change parent because prefix `row` now sits under `parentId`. */
async function affectedBy(exec: Exec, row: Row, parentId: string | null, before: Row | undefined): Promise<{ prefixIds: string[]; ipIds: string[] }> {
  const net = prefixOf(row);
  // `network <= broadcast` adds nothing to the result (a contained prefix starts inside the
  // range) but closes the index range: without it every prefix above this one in the
  // namespace is visited (and its row read for parent_id), per created prefix.
  const inRange = exec.selectFrom(T.prefix).select('id')
    .where('namespace_id', '=', row.namespace_id).where('ip_version', '=', net.version)
    .where('network', '>=', net.network).where('network', '<=', net.broadcast).where('broadcast', '<=', net.broadcast)
    .where('prefix_length', '>', net.prefixLength).where('id', '!=', row.id)
    .where('parent_id', parentId === null ? 'is' : '=', parentId);
  const prefixIds = await ids(inRange.execute());
  const ipIds = parentId === null ? [] : await ids(exec.selectFrom(T.ip).select('id')
    .where('namespace_id', '=', row.namespace_id).where('ip_version', '=', net.version)
    .where('host', '>=', net.network).where('host', '<=', net.broadcast).where('parent_id', '=', parentId).execute());
  if (before) {
    prefixIds.push(...await ids(exec.selectFrom(T.prefix).select('id').where('parent_id', '=', row.id).execute()));
    ipIds.push(...await ids(exec.selectFrom(T.ip).select('id').where('parent_id', '=', row.id).execute()));
  }
  return { prefixIds: [...new Set(prefixIds)], ipIds: [...new Set(ipIds)] };
}

/** The reference's refusal of a resize that would orphan addresses, naming the lowest host. */
function orphanError(orphans: Row[]): ValidationError {
  const hosts = orphans.map((r) => addressOf(r));
  const first = hosts.sort((a, b) => Buffer.compare(a.host, b.host))[0];
  return new ValidationError({ __all__: [`${orphans.length} existing IP addresses (including ${formatAddress(first.host, first.version)}) would no longer have a valid parent Prefix after this change.`] });
}

/**
 * afterWrite of prefixes: for each created or moved prefix, in input order (so prefixes
 * nested inside one batch settle correctly), fix its own parent, then re-place what it may
 * adopt or release. A resize that would leave IP addresses without a prefix is a 400 (the
 * reference's `__all__` message); a prefix moved to another namespace takes its subtree along
 * (apps/ipam/namespace-move.ts).
 */
export async function placePrefixes(ctx: WriteHookContext): Promise<void> {
  const { services, exec } = ctx;
  for (const plan of ctx.plans) {
    if (!hasMoved(plan.row, plan.before)) continue;
    if (isNamespaceMove(plan.row, plan.before)) {
      await carrySubtree(services, exec, plan.row, plan.before);
      continue;
    }
    const own = await findClosestParents(exec, [prefixPlacement(plan.row)], new Set([plan.row.id]));
    const parentId = own.get(plan.row.id) ?? null;
    await exec.updateTable(T.prefix).set({ parent_id: parentId }).where('id', '=', plan.row.id).execute();
    const affected = await affectedBy(exec, plan.row, parentId, plan.before);
    const { orphans } = await reparent(services, exec, affected);
    if (orphans.length > 0) throw orphanError(orphans);
  }
}

/**
 * beforeDelete of prefixes: children (prefixes and IP addresses) move to the closest
 * surviving prefix; when an IP address would have none, the delete is refused with 409 in
 * the reference's protected-delete shape.
 */
export async function releasePrefixes(ctx: DeleteHookContext): Promise<void> {
  const { services, exec } = ctx;
  const doomed = new Set(ctx.rows.map((r) => r.id));
  const prefixIds: string[] = [];
  const ipIds: string[] = [];
  for (const part of chunk([...doomed])) {
    prefixIds.push(...await ids(exec.selectFrom(T.prefix).select('id').where('parent_id', 'in', part).execute()));
    ipIds.push(...await ids(exec.selectFrom(T.ip).select('id').where('parent_id', 'in', part).execute()));
  }
  const { orphans } = await reparent(services, exec, { prefixIds, ipIds, exclude: doomed });
  if (orphans.length === 0) return;
  const listed = orphans.map((r) => `${String(r.host)}/${String(r.mask_length)} (${r.id})`).join(', ');
  throw new ConflictError(`Unable to delete object. ${orphans.length} dependent objects were found: ${listed}`);
}
