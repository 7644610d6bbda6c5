/**
 * IP address writes (parseInput): `address` (host with mask, host bits kept) becomes host,
 * mask_length and ip_version; the parent is the closest prefix containing the host in the
 * lookup namespace (the given namespace, else the given parent's); a supplied parent must be
 * that prefix (catalogue ipam.ipaddress validation).
 */
import { formatAddress, parseIp } from '../../core/ip/index.js';
import { hostPlacement } from './hierarchy.js';
import { T } from './net.js';
import { findClosestParents } from './parents.js';
import type { Exec } from '../../db/store.js';
import type { WriteHookContext } from '../../ops/extensions.js';
import type { Services } from '../../ops/services.js';
import type { ItemPlan } from '../../ops/write/build-item.js';

const DNS_NAME = /^[0-9A-Za-z._-]*$/;

function addError(plan: ItemPlan, field: string, message: string): void {
  (plan.errors[field] ??= []).push(message);
}

function has(plan: ItemPlan, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(plan.input, key);
}

/** Sets host, mask_length and ip_version from `address`; the host of an existing address is fixed. */
function applyAddress(plan: ItemPlan): boolean {
  if (!has(plan, 'address')) return !!plan.before;
  const text = plan.input.address;
  if (typeof text !== 'string') {
    addError(plan, 'address', text === null ? 'This field may not be null.' : 'Not a valid string.');
    return false;
  }
  const parsed = parseIp(text);
  if (!parsed.ok) {
    addError(plan, 'address', parsed.error.message);
    return false;
  }
  const host = formatAddress(parsed.value.host, parsed.value.version);
  if (plan.before && (plan.before.host !== host || Number(plan.before.ip_version) !== parsed.value.version)) {
    addError(plan, '__all__', 'Host address cannot be changed once created');
    return false;
  }
  Object.assign(plan.row, { host, mask_length: parsed.value.prefixLength, ip_version: parsed.value.version });
  return true;
}

/** Field rules of the catalogue that need no query: SLAAC is IPv6 only; DNS name characters. */
function checkFields(plan: ItemPlan): void {
  if (plan.row.type === 'slaac' && Number(plan.row.ip_version) !== 6) addError(plan, 'type', 'Only IPv6 addresses can be assigned SLAAC type');
  if (typeof plan.row.dns_name === 'string' && !DNS_NAME.test(plan.row.dns_name)) {
    addError(plan, 'dns_name', 'Only alphanumeric characters, hyphens, periods, and underscores are allowed in DNS names');
  }
}

async function namesAndNamespaces(exec: Exec, prefixIds: string[], namespaceIds: string[]) {
  const prefixNs = new Map<string, string>();
  if (prefixIds.length) for (const r of await exec.selectFrom(T.prefix).select(['id', 'namespace_id']).where('id', 'in', prefixIds).execute()) prefixNs.set(String(r.id), String(r.namespace_id));
  const names = new Map<string, string>();
  const all = [...new Set([...namespaceIds, ...prefixNs.values()])];
  if (all.length) for (const r of await exec.selectFrom(T.namespace).select(['id', 'name']).where('id', 'in', all).execute()) names.set(String(r.id), String(r.name));
  return { prefixNs, names };
}

/** CIDR text of the given prefixes, by id (for the messages of refused parents). */
async function cidrsOf(services: Services, exec: Exec, ids: string[]): Promise<Map<string, string>> {
  const rows = ids.length ? await services.store.byIds(exec, services.registry.get('ipam.prefix'), [...new Set(ids)]) : [];
  return new Map(rows.map((r) => [r.id, `${String(r.network)}/${String(r.prefix_length)}`]));
}

/** The reference's message for a supplied parent that is not the closest prefix of the lookup namespace. */
async function refuseParents(ctx: WriteHookContext, refused: { plan: ItemPlan; supplied: string; closest: string; namespace: string }[]): Promise<void> {
  const cidrs = await cidrsOf(ctx.services, ctx.exec, refused.flatMap((r) => [r.supplied, r.closest]));
  for (const { plan, supplied, closest, namespace } of refused) {
    const ip = `${String(plan.row.host)}/${String(plan.row.mask_length)}`;
    addError(plan, 'parent', `${cidrs.get(supplied) ?? supplied} cannot be assigned as the parent of ${ip}.  In namespace ${namespace}, the expected parent would be ${cidrs.get(closest) ?? closest}.`);
  }
}

/**
 * The namespace to look the parent up in: on create the given namespace, else the given
 * parent's; on update the stored one, unless a new parent (of another namespace) is given.
 */
function lookupNamespace(plan: ItemPlan, given: string | null, prefixNs: Map<string, string>): string | null {
  const parentNs = given ? prefixNs.get(given) ?? null : null;
  if (!plan.before) return (has(plan, 'namespace') && plan.row.namespace_id ? String(plan.row.namespace_id) : null) ?? parentNs;
  return parentNs ?? (plan.before.namespace_id ? String(plan.before.namespace_id) : null);
}

/** parseInput of ipam.ipaddress. */
export async function parseIpInputs(ctx: WriteHookContext): Promise<void> {
  const ready = ctx.plans.filter((plan) => applyAddress(plan) && (checkFields(plan), Object.keys(plan.errors).length === 0));
  const given = new Map(ready.map((p) => [p.row.id, has(p, 'parent') && p.row.parent_id ? String(p.row.parent_id) : null]));
  const { prefixNs, names } = await namesAndNamespaces(ctx.exec, [...given.values()].filter((v): v is string => !!v), ready.map((p) => p.row.namespace_id).filter((v): v is string => typeof v === 'string'));
  const placed: ItemPlan[] = [];
  for (const plan of ready) {
    const namespaceId = lookupNamespace(plan, given.get(plan.row.id) ?? null, prefixNs);
    if (!namespaceId) addError(plan, '__all__', 'One of parent or namespace must be provided');
    else { plan.row.namespace_id = namespaceId; placed.push(plan); }
  }
  const found = await findClosestParents(ctx.exec, placed.map((p) => hostPlacement(p.row, String(p.row.namespace_id))));
  const refused: Parameters<typeof refuseParents>[1] = [];
  for (const plan of placed) {
    const closest = found.get(plan.row.id) ?? null;
    const supplied = given.get(plan.row.id);
    const namespace = names.get(String(plan.row.namespace_id)) ?? '';
    if (!closest) addError(plan, 'namespace', `No suitable parent Prefix for ${String(plan.row.host)} exists in Namespace ${namespace}`);
    else if (supplied && supplied !== closest) refused.push({ plan, supplied, closest, namespace });
    else plan.row.parent_id = closest;
  }
  if (refused.length) await refuseParents(ctx, refused);
}
