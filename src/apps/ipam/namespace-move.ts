/**
 * A prefix moved to another namespace (PATCH/PUT `namespace`) takes its whole subtree along,
 * as the reference's Prefix.clean()/save() do: every prefix inside its range in the old
 * namespace and every IP address under them change namespace, then the range is re-placed in
 * the new namespace (the moved prefixes adopt what already sat there, and are adopted by its
 * containing prefix). Refused: a move together with a network change, a move while the prefix
 * or a descendant has VRF assignments (catalogue ipam.prefix validation), and, where the
 * reference fails on its database constraints instead (a 500), a move into a namespace that
 * already holds one of the moving prefixes or hosts.
 */
import { ValidationError } from '../../core/errors.js';
import { formatAddress } from '../../core/ip/index.js';
import { prefixOf, T, toBytes } from './net.js';
import { reparent } from './hierarchy.js';
import type { IpNetwork } from '../../core/ip/index.js';
import type { Exec } from '../../db/store.js';
import type { Row } from '../../core/registry/types.js';
import type { WriteHookContext } from '../../ops/extensions.js';
import type { ItemPlan } from '../../ops/write/build-item.js';
import type { Services } from '../../ops/services.js';

const SHOWN = 5;

/** True when an update changes the prefix's namespace. */
export function isNamespaceMove(row: Row, before: Row | undefined): before is Row {
  return !!before && before.namespace_id !== row.namespace_id;
}

/** Prefixes strictly inside `net` in one namespace (a query on the aliased table `a`). */
function descendants(exec: Exec, namespaceId: unknown, net: IpNetwork) {
  return exec.selectFrom(`${T.prefix} as a`)
    .where('a.namespace_id', '=', namespaceId).where('a.ip_version', '=', net.version)
    .where('a.network', '>=', net.network).where('a.broadcast', '<=', net.broadcast)
    .where('a.prefix_length', '>', net.prefixLength);
}

/** Addresses whose host lies in `net` in one namespace (aliased table `a`). */
function hostsIn(exec: Exec, namespaceId: unknown, net: IpNetwork) {
  return exec.selectFrom(`${T.ip} as a`)
    .where('a.namespace_id', '=', namespaceId).where('a.ip_version', '=', net.version)
    .where('a.host', '>=', net.network).where('a.host', '<=', net.broadcast);
}

function addError(plan: ItemPlan, field: string, message: string): void {
  (plan.errors[field] ??= []).push(message);
}

/**
 * parseInput part: the reference's clean() refusals of a namespace change, with its keys and
 * messages (a resize in the same update; VRFs on the prefix; VRFs on a descendant).
 */
export async function checkNamespaceMove(ctx: WriteHookContext, plan: ItemPlan): Promise<void> {
  const { before, row } = plan;
  if (!isNamespaceMove(row, before)) return;
  if (before.network !== row.network || before.prefix_length !== row.prefix_length) {
    addError(plan, '__all__', 'Cannot change network and namespace in the same update. Consider creating a new Prefix instead.');
    return;
  }
  const own = await ctx.exec.selectFrom(T.vrfPrefix).select('id').where('prefix_id', '=', row.id).limit(1).execute();
  if (own.length > 0) {
    addError(plan, 'namespace', 'Cannot move to a different Namespace while associated to VRFs in the current Namespace. Remove all VRFs from this Prefix and descendants before making this change.');
    return;
  }
  const below = await descendants(ctx.exec, before.namespace_id, prefixOf(before))
    .innerJoin(`${T.vrfPrefix} as v`, 'v.prefix_id', 'a.id').select('v.id').limit(1).execute();
  if (below.length > 0) {
    addError(plan, 'namespace', 'Cannot move to a different Namespace with descendant Prefixes associated to VRFs in the current Namespace. Remove all VRFs from all descendants before making this change.');
  }
}

/** Moving prefixes (CIDR text) that the target namespace already holds, at most SHOWN + 1. */
async function clashingPrefixes(exec: Exec, net: IpNetwork, from: unknown, to: unknown): Promise<string[]> {
  const rows = await descendants(exec, from, net)
    .innerJoin(`${T.prefix} as b`, (join) => join.onRef('b.network', '=', 'a.network').onRef('b.prefix_length', '=', 'a.prefix_length').onRef('b.ip_version', '=', 'a.ip_version'))
    .where('b.namespace_id', '=', to)
    .select(['a.network', 'a.prefix_length']).orderBy('a.network').orderBy('a.prefix_length').limit(SHOWN + 1).execute();
  return rows.map((r) => `${formatAddress(toBytes(r.network), net.version)}/${String(r.prefix_length)}`);
}

/** Hosts of moving addresses that the target namespace already holds, at most SHOWN + 1. */
async function clashingHosts(exec: Exec, net: IpNetwork, from: unknown, to: unknown): Promise<string[]> {
  const rows = await hostsIn(exec, from, net)
    .innerJoin(`${T.ip} as b`, (join) => join.onRef('b.host', '=', 'a.host').onRef('b.ip_version', '=', 'a.ip_version'))
    .where('b.namespace_id', '=', to)
    .select('a.host').orderBy('a.host').limit(SHOWN + 1).execute();
  return rows.map((r) => formatAddress(toBytes(r.host), net.version));
}

function listed(items: string[]): string {
  return items.length > SHOWN ? `${items.slice(0, SHOWN).join(', ')}, ...` : items.join(', ');
}

/** Refuses the move when the target namespace already holds a moving prefix or host (unique per namespace). */
async function refuseClashes(exec: Exec, net: IpNetwork, from: unknown, to: unknown): Promise<void> {
  const prefixes = await clashingPrefixes(exec, net, from, to);
  const hosts = await clashingHosts(exec, net, from, to);
  const messages = [
    ...(prefixes.length ? [`The target Namespace already holds prefixes that would move with this one: ${listed(prefixes)}`] : []),
    ...(hosts.length ? [`The target Namespace already holds IP addresses that would move with this prefix: ${listed(hosts)}`] : []),
  ];
  if (messages.length) throw new ValidationError({ namespace: messages });
}

async function idsOf(query: Promise<{ id: unknown }[]>): Promise<string[]> {
  return (await query).map((r) => String(r.id));
}

/** Gives every prefix strictly inside `net`, and every address in it, namespace `to` instead of `from`. */
async function moveRange(exec: Exec, net: IpNetwork, from: unknown, to: unknown): Promise<void> {
  await exec.updateTable(T.prefix).set({ namespace_id: to })
    .where('namespace_id', '=', from).where('ip_version', '=', net.version)
    .where('network', '>=', net.network).where('network', '<=', net.broadcast).where('broadcast', '<=', net.broadcast)
    .where('prefix_length', '>', net.prefixLength).execute();
  await exec.updateTable(T.ip).set({ namespace_id: to })
    .where('namespace_id', '=', from).where('ip_version', '=', net.version)
    .where('host', '>=', net.network).where('host', '<=', net.broadcast).execute();
}

/**
 * afterWrite part, for a prefix whose row already carries the new namespace: refuse clashes,
 * carry descendants and their addresses over, then re-place everything in the range in the
 * new namespace (the old namespace loses the whole subtree, so nothing there changes parent).
 */
export async function carrySubtree(services: Services, exec: Exec, row: Row, before: Row): Promise<void> {
  const net = prefixOf(row);
  const [from, to] = [before.namespace_id, row.namespace_id];
  await refuseClashes(exec, net, from, to);
  await moveRange(exec, net, from, to);
  const prefixIds = [row.id, ...await idsOf(descendants(exec, to, net).select('a.id as id').execute())];
  const ipIds = await idsOf(hostsIn(exec, to, net).select('a.id as id').execute());
  await reparent(services, exec, { prefixIds, ipIds });
}
