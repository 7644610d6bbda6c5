import { formatAddress, parseAddressBytes } from '../ip/index.js';
import { fail, ok } from './kind.js';
import type { KindBehaviour } from './kind.js';

/** 16-byte big-endian address of an address text (`10.0.0.1`, `2001:db8::1`); null when invalid. */
export function toAddressBytes(text: string): Buffer | null {
  return parseAddressBytes(text);
}

function encodeAddress(value: unknown): unknown {
  if (value === null || value === undefined || Buffer.isBuffer(value)) return value;
  const bytes = toAddressBytes(String(value));
  if (!bytes) throw new RangeError(`not an IP address: ${String(value)}`);
  return bytes;
}

/**
 * The stored bytes as text. The row's `ip_version` tells IPv4 from an IPv4-mapped IPv6
 * address (both share `::ffff:a.b.c.d`); without it the mapped block reads as IPv4.
 */
function decodeAddress(value: unknown, raw: Record<string, unknown>): unknown {
  if (value === null || value === undefined) return null;
  const bytes = Buffer.isBuffer(value) ? value : Buffer.from(value as Uint8Array);
  if (bytes.length !== 16) return null;
  const mapped = bytes.subarray(0, 12).equals(Buffer.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff]));
  const version = raw.ip_version === undefined || raw.ip_version === null ? (mapped ? 4 : 6) : Number(raw.ip_version);
  return formatAddress(bytes, version === 4 ? 4 : 6);
}

/**
 * An IP address (network, broadcast or host) stored as 16 big-endian bytes, IPv4 mapped into
 * `::ffff:0:0/96` (ARCHITECTURE.md section 3), and held in rows and the API as text. Byte
 * order is address order, so range lookups are plain comparisons on an indexed column.
 */
export const ipAddressKind: KindBehaviour = {
  storage: 'binary',
  optionsType: 'field',
  lookups: [],
  parse: (value) => (typeof value === 'string' && toAddressBytes(value.trim()) ? ok(value.trim()) : fail(`Invalid IP address format: ${String(value)}`)),
  render: (value) => value,
  parseFilter: (raw) => (toAddressBytes(raw.trim()) ? ok(raw.trim()) : fail(`Invalid IP address format: ${raw}`)),
  encode: encodeAddress,
  decode: decodeAddress,
};
