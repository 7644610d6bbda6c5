/**
 * Text -> {@link IpNetwork}. ipaddr.js does the parsing; the checks around it make it as
 * strict as the reference's netaddr (inet_pton rules): dotted-quad IPv4 only, no zone ids,
 * at most four hex digits per IPv6 group.
 */
import ipaddr from 'ipaddr.js';

import { buildNetwork, getAddressBits, toBuffer, V4_MAPPED_BASE } from './math.js';
import type { IpErrorCode, IpParseResult, IpVersion, PrefixParseResult } from './types.js';

const DIGITS = /^\d{1,3}$/;
const V6_LONG_GROUP = /[0-9a-f]{5,}/i;
const V6_DOTTED_TAIL = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/;

function fail(code: IpErrorCode, input: string): { ok: false; error: { code: IpErrorCode; message: string } } {
  // DRF refuses a blank string before the IP field sees it; every other failure is netaddr's.
  const message = code === 'IP_ERR_EMPTY' ? 'This field may not be blank.' : `Invalid IP address format: ${input}`;
  return { ok: false, error: { code, message } };
}

function toIntegerFromBytes(bytes: number[]): bigint {
  return bytes.reduce((acc, byte) => (acc << 8n) | BigInt(byte), 0n);
}

function parseV4(text: string): bigint | null {
  if (!ipaddr.IPv4.isValidFourPartDecimal(text)) return null;
  return V4_MAPPED_BASE | toIntegerFromBytes(ipaddr.IPv4.parse(text).octets);
}

/**
 * ipaddr.js reads `::a.b.c.d` as `::ffff:a.b.c.d` and accepts octal in the tail, unlike
 * inet_pton; so the dotted tail is checked and rewritten as two hex groups first.
 */
function rewriteDottedTail(text: string): string | null {
  const match = V6_DOTTED_TAIL.exec(text);
  if (!match) return text.includes('.') ? null : text;
  const [, head, quad] = match as unknown as [string, string, string];
  if (!ipaddr.IPv4.isValidFourPartDecimal(quad)) return null;
  const [a, b, c, d] = ipaddr.IPv4.parse(quad).octets as [number, number, number, number];
  return `${head}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

function parseV6(text: string): bigint | null {
  if (text.includes('%') || V6_LONG_GROUP.test(text)) return null;
  const rewritten = rewriteDottedTail(text);
  if (rewritten === null || !ipaddr.IPv6.isValid(rewritten)) return null;
  return toIntegerFromBytes(ipaddr.IPv6.parse(rewritten).toByteArray());
}

function parseHost(text: string): { version: IpVersion; host: bigint } | null {
  const version: IpVersion = text.includes(':') ? 6 : 4;
  const host = version === 4 ? parseV4(text) : parseV6(text);
  return host === null ? null : { version, host };
}

/** A v4 dotted mask: a netmask (255.255.255.0) or, as netaddr allows, a hostmask (0.0.0.255). */
function parseDottedMask(text: string): number | null {
  if (!ipaddr.IPv4.isValidFourPartDecimal(text)) return null;
  const octets = ipaddr.IPv4.parse(text).octets;
  const netmask = new ipaddr.IPv4(octets).prefixLengthFromSubnetMask();
  return netmask ?? new ipaddr.IPv4(octets.map((o) => 255 - o)).prefixLengthFromSubnetMask();
}

function parsePrefixLength(text: string, version: IpVersion): number | null {
  if (DIGITS.test(text)) {
    const length = Number(text);
    return length <= getAddressBits(version) ? length : null;
  }
  return version === 4 ? parseDottedMask(text) : null;
}

/**
 * Parses `10.0.0.0/8`, `2001:db8::/32`, a bare host (`10.0.0.5` -> /32, `::1` -> /128) or a
 * host with mask (`10.0.0.5/24`, also `10.0.0.5/255.255.255.0`), keeping the host bits.
 * Surrounding whitespace is ignored (DRF trims it). An IPv4-mapped IPv6 text such as
 * `::ffff:10.0.0.1` is version 6 and shares its bytes with `10.0.0.1`; rows keep the two apart
 * by `ip_version`.
 * @example parseIp('10.0.0.300/8') -> { ok: false, error: { code: 'IP_ERR_ADDRESS', ... } }
 */
export function parseIp(text: string): IpParseResult {
  const input = text.trim();
  if (input === '') return fail('IP_ERR_EMPTY', text);
  const slash = input.indexOf('/');
  const parsed = parseHost(slash < 0 ? input : input.slice(0, slash));
  if (parsed === null) return fail('IP_ERR_ADDRESS', input);
  const prefixLength =
    slash < 0 ? getAddressBits(parsed.version) : parsePrefixLength(input.slice(slash + 1), parsed.version);
  if (prefixLength === null) return fail('IP_ERR_PREFIX_LENGTH', input);
  return { ok: true, value: buildNetwork({ version: parsed.version, prefixLength, host: parsed.host }) };
}

/**
 * The 16 bytes of an address without a prefix length (`10.0.0.1`, ` 2001:db8::1 `), as
 * {@link parseIp}'s `host`, without working out a network and broadcast; null when the text is
 * not one address (empty, invalid, or with a `/`).
 */
export function parseAddressBytes(text: string): Buffer | null {
  const input = text.trim();
  if (input === '' || input.includes('/')) return null;
  const parsed = parseHost(input);
  return parsed === null ? null : toBuffer(parsed.host);
}

/**
 * Parses a prefix as {@link parseIp} does, then normalises it: `host` becomes the network
 * address, and `hostBitsSet` says whether the input had host bits (`10.0.0.5/8` -> `10.0.0.0/8`,
 * true), which the reference drops silently.
 */
export function parsePrefix(text: string): PrefixParseResult {
  const result = parseIp(text);
  if (!result.ok) return result;
  const { value } = result;
  const hostBitsSet = !value.host.equals(value.network);
  return { ok: true, value: { ...value, host: value.network }, hostBitsSet };
}

