/**
 * Prefix writes (parseInput): the `prefix` CIDR becomes network, broadcast, prefix_length and
 * ip_version (host bits dropped, as the reference); namespace defaults to Global; parent is
 * the service's, never the client's (apps/ipam/hierarchy.ts settles it after the write).
 */
import { formatAddress, parsePrefix } from '../../core/ip/index.js';
import { globalNamespaceOnce } from './namespace.js';
import { hasMoved, prefixPlacement } from './hierarchy.js';
import { checkNamespaceMove } from './namespace-move.js';
import { findClosestParents } from './parents.js';
import type { WriteHookContext } from '../../ops/extensions.js';
import type { ItemPlan } from '../../ops/write/build-item.js';

function addError(plan: ItemPlan, field: string, message: string): void {
  (plan.errors[field] ??= []).push(message);
}

/** Sets the network columns from the `prefix` input; false when it is not a valid CIDR. */
function applyCidr(plan: ItemPlan): boolean {
  if (!Object.prototype.hasOwnProperty.call(plan.input, 'prefix')) return !!plan.before;
  const text = plan.input.prefix;
  if (text === null || typeof text !== 'string') {
    addError(plan, 'prefix', text === null ? 'This field may not be null.' : 'Not a valid string.');
    return false;
  }
  const parsed = parsePrefix(text);
  if (!parsed.ok) {
    addError(plan, 'prefix', parsed.error.message);
    return false;
  }
  const net = parsed.value;
  Object.assign(plan.row, {
    network: formatAddress(net.network, net.version),
    broadcast: formatAddress(net.broadcast, net.version),
    prefix_length: net.prefixLength,
    ip_version: net.version,
  });
  return true;
}

/** parseInput of ipam.prefix. */
export async function parsePrefixInputs(ctx: WriteHookContext): Promise<void> {
  const ready: ItemPlan[] = [];
  const globalId = globalNamespaceOnce(ctx.services, ctx.exec);
  for (const plan of ctx.plans) {
    const ok = applyCidr(plan);
    if (!plan.row.namespace_id && !plan.errors.namespace) plan.row.namespace_id = await globalId();
    if (plan.before && !hasMoved(plan.row, plan.before)) plan.row.parent_id = plan.before.parent_id;
    await checkNamespaceMove(ctx, plan);
    if (ok && Object.keys(plan.errors).length === 0 && hasMoved(plan.row, plan.before)) ready.push(plan);
  }
  const parents = await findClosestParents(ctx.exec, ready.map((p) => prefixPlacement(p.row)), new Set(ready.map((p) => p.row.id)));
  for (const plan of ready) plan.row.parent_id = parents.get(plan.row.id) ?? null;
}
