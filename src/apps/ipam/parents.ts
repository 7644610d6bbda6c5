/**
 * Closest-parent search for prefixes and IP addresses. A containing prefix of a range
 * starting at `first` can only have the network `first` masked to its own length, so the
 * candidates are found by point look-ups on the indexed `network` column (at most 33 or 129
 * per item, shared across a batch), never by scanning every shorter network.
 */
import { buildNetwork, toBigInt } from '../../core/ip/index.js';
import { chunk } from '../../db/store.js';
import { T, toBytes } from './net.js';
import type { IpVersion } from '../../core/ip/index.js';
import type { Exec } from '../../db/store.js';

/** Something that needs a parent prefix: a prefix (its range) or an IP address (first = last = host). */
export type Placement = {
  key: string;
  namespaceId: string;
  version: IpVersion;
  first: Buffer;
  last: Buffer;
  /** Longest prefix_length a parent may have (own length - 1 for a prefix; 32 or 128 for a host). */
  maxLength: number;
};

type Candidate = { id: string; prefixLength: number; broadcast: Buffer };

function maskKey(namespaceId: string, version: number, network: Buffer): string {
  return `${namespaceId}|${version}|${network.toString('hex')}`;
}

/** Every network a containing prefix of `item` could have, longest first. */
function candidateNetworks(item: Placement): { length: number; network: Buffer }[] {
  const host = toBigInt(item.first);
  const out: { length: number; network: Buffer }[] = [];
  for (let length = item.maxLength; length >= 0; length -= 1) out.push({ length, network: buildNetwork({ version: item.version, prefixLength: length, host }).network });
  return out;
}

async function loadCandidates(exec: Exec, items: Placement[]): Promise<Map<string, Candidate[]>> {
  const networks = new Map<string, Buffer>();
  for (const item of items) for (const { network } of candidateNetworks(item)) networks.set(network.toString('hex'), network);
  const namespaces = [...new Set(items.map((i) => i.namespaceId))];
  const versions = [...new Set(items.map((i) => i.version))];
  const byKey = new Map<string, Candidate[]>();
  for (const part of chunk([...networks.values()])) {
    // ip_version (implied by the network's bytes) lets the (namespace, ip_version, network) index
    // seek each network; without it SQLite read every prefix of the namespace per statement.
    const rows = await exec.selectFrom(T.prefix)
      .select(['id', 'namespace_id', 'ip_version', 'network', 'broadcast', 'prefix_length'])
      .where('namespace_id', 'in', namespaces).where('ip_version', 'in', versions).where('network', 'in', part).execute();
    for (const r of rows) {
      const key = maskKey(String(r.namespace_id), Number(r.ip_version), toBytes(r.network));
      byKey.set(key, [...(byKey.get(key) ?? []), { id: String(r.id), prefixLength: Number(r.prefix_length), broadcast: toBytes(r.broadcast) }]);
    }
  }
  return byKey;
}

/**
 * The closest containing prefix of each item in its namespace and family (longest
 * prefix_length, shorter than `maxLength` + 1), ignoring prefixes in `exclude`; null when none.
 */
export async function findClosestParents(exec: Exec, items: Placement[], exclude: ReadonlySet<string> = new Set()): Promise<Map<string, string | null>> {
  const out = new Map<string, string | null>();
  if (items.length === 0) return out;
  const byKey = await loadCandidates(exec, items);
  for (const item of items) {
    let found: string | null = null;
    for (const { length, network } of candidateNetworks(item)) {
      const hit = byKey.get(maskKey(item.namespaceId, item.version, network))
        ?.find((c) => c.prefixLength === length && !exclude.has(c.id) && Buffer.compare(c.broadcast, item.last) >= 0);
      if (hit) { found = hit.id; break; }
    }
    out.set(item.key, found);
  }
  return out;
}
