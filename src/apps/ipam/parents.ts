/**
 * Closest-parent search for prefixes and IP addresses. A containing prefix of a range
 * starting at `first` can only have the network `first` masked to its own length, so the
 * candidates are found by point look-ups on the indexed `network` column (at most 33 or 129
 * per item, shared across a batch), never by scanning every shorter network.
 */
import { getAddressBits } from '../../core/ip/index.js';
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

function maskKey(namespaceId: string, version: number, networkHex: string): string {
  return `${namespaceId}|${version}|${networkHex}`;
}

/** A network a containing prefix could have: its length and its 16 bytes in hex. */
type CandidateNetwork = { length: number; hex: string };

/** Each item's candidate networks, worked out once per search. */
type Candidates = Map<Placement, CandidateNetwork[]>;

/**
 * Every network a containing prefix of `item` could have, longest first: `first` with the bits
 * past each length cleared, one bit more per step on one copy of its bytes (as buildNetwork
 * masks, without three buffers and BigInt masks per length: an IP address has 33 or 129).
 */
function candidateNetworks(item: Placement): CandidateNetwork[] {
  const offset = 128 - getAddressBits(item.version);
  const bytes = Buffer.from(item.first);
  for (let bit = offset + Math.max(0, item.maxLength); bit < 128; bit += 1) bytes[bit >> 3] &= ~(0x80 >> (bit & 7));
  const out: CandidateNetwork[] = [];
  for (let length = item.maxLength; length >= 0; length -= 1) {
    const bit = offset + length;
    if (bit < 128) bytes[bit >> 3] &= ~(0x80 >> (bit & 7));
    out.push({ length, hex: bytes.toString('hex') });
  }
  return out;
}

async function loadCandidates(exec: Exec, items: Placement[], candidates: Candidates): Promise<Map<string, Candidate[]>> {
  const networks = new Map<string, Buffer>();
  for (const item of items) for (const { hex } of candidates.get(item)!) if (!networks.has(hex)) networks.set(hex, Buffer.from(hex, 'hex'));
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
      const key = maskKey(String(r.namespace_id), Number(r.ip_version), toBytes(r.network).toString('hex'));
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
  const candidates: Candidates = new Map(items.map((item) => [item, candidateNetworks(item)]));
  const byKey = await loadCandidates(exec, items, candidates);
  for (const item of items) {
    let found: string | null = null;
    for (const { length, hex } of candidates.get(item)!) {
      const hit = byKey.get(maskKey(item.namespaceId, item.version, hex))
        ?.find((c) => c.prefixLength === length && !exclude.has(c.id) && Buffer.compare(c.broadcast, item.last) >= 0);
      if (hit) { found = hit.id; break; }
    }
    out.set(item.key, found);
  }
  return out;
}
