/**
 * Free space of a prefix and allocation from it (catalogue ipam.prefix: available-prefixes
 * and available-ips). Allocation runs in one transaction that first takes the dialect's
 * table lock, so two concurrent requests never hand out the same block or address.
 */
import { findAvailableIps, findAvailablePrefixes, findFirstFreeBlock, formatAddress, formatCidr, formatHostCidr, getUsableRange, toBigInt } from '../../core/ip/index.js';
import { ValidationError } from '../../core/errors.js';
import { persist } from '../../ops/write/persist.js';
import { prefixOf, T, toBytes } from './net.js';
import type { IpNetwork } from '../../core/ip/index.js';
import type { Exec } from '../../db/store.js';
import type { Row } from '../../core/registry/types.js';
import type { RequestContext, Services } from '../../ops/services.js';

/** Every prefix below `parent` (any depth) in its namespace and family, as networks. */
async function descendantsOf(exec: Exec, parent: Row, net: IpNetwork): Promise<IpNetwork[]> {
  const rows = await exec.selectFrom(T.prefix).select(['network', 'broadcast', 'prefix_length'])
    .where('namespace_id', '=', parent.namespace_id).where('ip_version', '=', net.version)
    .where('network', '>=', net.network).where('network', '<=', net.broadcast).where('broadcast', '<=', net.broadcast).where('prefix_length', '>', net.prefixLength)
    .execute();
  return rows.map((r) => ({ version: net.version, prefixLength: Number(r.prefix_length), network: toBytes(r.network), broadcast: toBytes(r.broadcast), host: toBytes(r.network) }));
}

/** Hosts of the namespace's IP addresses inside the prefix (child prefixes do not reduce the set). */
async function usedHosts(exec: Exec, parent: Row, net: IpNetwork): Promise<Buffer[]> {
  const rows = await exec.selectFrom(T.ip).select('host')
    .where('namespace_id', '=', parent.namespace_id).where('ip_version', '=', net.version)
    .where('host', '>=', net.network).where('host', '<=', net.broadcast).execute();
  return rows.map((r) => toBytes(r.host));
}

/** GET available-prefixes: the free blocks, minimal CIDR list in address order. */
export async function listAvailablePrefixes(exec: Exec, parent: Row): Promise<{ ip_version: number; prefix: string }[]> {
  const net = prefixOf(parent);
  return findAvailablePrefixes(net, await descendantsOf(exec, parent, net)).map((block) => ({ ip_version: block.version, prefix: formatCidr(block) }));
}

/** GET available-ips: up to `limit` free addresses with the prefix's mask, optionally within a range. */
export async function listAvailableIps(exec: Exec, parent: Row, opts: { limit: number; rangeStart?: Buffer; rangeEnd?: Buffer }): Promise<{ ip_version: number; address: string }[]> {
  const net = prefixOf(parent);
  const found = findAvailableIps({ parent: net, used: await usedHosts(exec, parent, net), isPool: parent.type === 'pool', count: opts.limit, rangeStart: opts.rangeStart, rangeEnd: opts.rangeEnd });
  return found.map((ip) => ({ ip_version: ip.version, address: formatHostCidr(ip) }));
}

/**
 * The requested `prefix_length` must be a JSON integer (the reference's message, a bare string
 * as it sends it; a digit string is refused too) no longer than the family allows.
 */
function lengthError(value: unknown, net: IpNetwork): Record<string, unknown> {
  if (value === undefined) return { prefix_length: ['This field is required.'] };
  if (!Number.isInteger(value)) return { prefix_length: 'This field must be an integer.' };
  const bits = net.version === 4 ? 32 : 128;
  return Number(value) > bits ? { prefix_length: [`Ensure this value is less than or equal to ${bits}.`] } : {};
}

type Allocation = { services: Services; exec: Exec; rc: RequestContext; parent: Row; items: Record<string, unknown>[]; asList: boolean };

/** Thrown when the prefix has too little room; the route answers 204 with the message. */
export class InsufficientSpaceError extends Error {}

/** POST available-prefixes: each item at the start of the first free block that fits it. */
export async function allocatePrefixes(a: Allocation): Promise<Row[]> {
  await a.services.dialect.lockTable(a.exec, T.prefix);
  const net = prefixOf(a.parent);
  const taken = await descendantsOf(a.exec, a.parent, net);
  const errors = a.items.map((item) => lengthError(item.prefix_length, net));
  if (errors.some((e) => Object.keys(e).length > 0)) throw new ValidationError(a.asList ? errors : errors.find((e) => Object.keys(e).length > 0)!);
  const inputs = a.items.map((item) => {
    const block = findFirstFreeBlock(findAvailablePrefixes(net, taken), Number(item.prefix_length));
    if (!block) throw new InsufficientSpaceError('Insufficient space is available to accommodate the requested prefix size(s)');
    taken.push(block);
    const { prefix_length: _length, parent: _parent, ...rest } = item;
    return { input: { ...rest, prefix: formatCidr(block), namespace: a.parent.namespace_id } };
  });
  return persist(a.services, a.exec, a.rc, a.services.registry.get('ipam.prefix'), inputs, { partial: false, asList: a.asList });
}

/** How many addresses of `range` are free: its size less the distinct used hosts inside it. */
function countFree(range: { first: bigint; last: bigint }, used: Buffer[]): bigint {
  if (range.first > range.last) return 0n;
  const inside = new Set(used.map(toBigInt).filter((h) => h >= range.first && h <= range.last));
  return range.last - range.first + 1n - BigInt(inside.size);
}

/** The reference's 204 detail, naming the prefix, the counts and the bounds (the prefix's first and last address unless given). */
function shortageMessage(net: IpNetwork, counts: { requested: number; free: bigint }, bounds: { rangeStart?: Buffer; rangeEnd?: Buffer }): string {
  const start = formatAddress(bounds.rangeStart ?? net.network, net.version);
  const end = formatAddress(bounds.rangeEnd ?? net.broadcast, net.version);
  return `An insufficient number of IP addresses are available within the prefix ${formatCidr(net)} (${counts.requested} requested, ${counts.free} available between ${start} and ${end}).`;
}

/**
 * POST available-ips: each item takes the next free address (within `rangeStart`..`rangeEnd`
 * when given), with the prefix's mask and namespace.
 */
export async function allocateIps(a: Allocation & { rangeStart?: Buffer; rangeEnd?: Buffer }): Promise<Row[]> {
  await a.services.dialect.lockTable(a.exec, T.ip);
  const net = prefixOf(a.parent);
  const bounds = { rangeStart: a.rangeStart, rangeEnd: a.rangeEnd };
  const space = { parent: net, used: await usedHosts(a.exec, a.parent, net), isPool: a.parent.type === 'pool', ...bounds };
  const free = findAvailableIps({ ...space, count: a.items.length });
  if (free.length < a.items.length) {
    throw new InsufficientSpaceError(shortageMessage(net, { requested: a.items.length, free: countFree(getUsableRange(space), space.used) }, bounds));
  }
  const inputs = a.items.map((item, i) => {
    const { address: _address, parent: _parent, namespace: _namespace, ...rest } = item;
    return { input: { ...rest, address: formatHostCidr(free[i]), namespace: a.parent.namespace_id } };
  });
  return persist(a.services, a.exec, a.rc, a.services.registry.get('ipam.ipaddress'), inputs, { partial: false, asList: a.asList });
}
