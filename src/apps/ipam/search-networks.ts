/**
 * The networks an IPAM `q` term stands for, read as the reference's network querysets read it
 * (nautobot/ipam/querysets.py `parse_network_string`): a possibly incomplete address widened to
 * the network its given parts fix ("10.1" -> 10.1.0.0/16, "2001:db8::" -> 2001:db8::/32), any
 * mask ignored; digits alone below 256 may start either family, so both are searched; a term
 * that is no address at all stands for 0.0.0.0/32 (or ::/128), as the reference falls back.
 */
import { parseIp } from '../../core/ip/index.js';
import type { IpNetwork } from '../../core/ip/index.js';

const HEXTET = /^[a-f0-9]{4}$|^0?[a-f0-9]{3}$|^0{0,2}[a-f0-9]{2}$|^0{0,3}[a-f0-9]$/;
const FALLBACK = { 4: '0.0.0.0/32', 6: '::/128' } as const;

/** Digits alone, below 256: the first octet of an IPv4 address or the first hextet of an IPv6 one. */
function isAmbiguous(term: string): boolean {
  return /^\d+$/.test(term) && Number(term) < 256;
}

/** Completes what could start an IPv6 address so that it parses: a trailing `:` doubled, `::` appended to a lone hextet. */
function prepareV6(term: string): string {
  if (term.endsWith(':') && !term.endsWith('::')) return `${term}:`;
  if (!term.endsWith(':') && term.includes(':') && !term.includes('::')) return `${term}:`;
  if ((/^\d+$/.test(term) && Number(term) > 255) || HEXTET.test(term)) return `${term}::`;
  return term;
}

/** `a.b` -> a.b.0.0/16: as many octets as given fix the network. */
function v4Text(term: string): string | null {
  const octets = term.split('.').filter((o) => o !== '');
  if (octets.length > 4 || octets.some((o) => !/^\d{1,3}$/.test(o) || Number(o) > 255)) return null;
  return `${[...octets, ...Array(4 - octets.length).fill('0')].join('.')}/${8 * octets.length}`;
}

/** A complete address is itself (/128); `a:b::` -> a:b:0:0:0:0:0:0/32, as many hextets as given. */
function v6Text(term: string): string {
  const groups = term.split(':');
  if (/^[a-z0-9]+$/i.test(groups[groups.length - 1] ?? '')) return `${term}/128`;
  const given = groups.filter((g) => g !== '');
  return `${[...given, ...Array(Math.max(0, 8 - given.length)).fill('0')].join(':')}/${16 * given.length}`;
}

function parseAs(term: string, version: 4 | 6): IpNetwork {
  const text = version === 4 ? v4Text(term) : v6Text(term);
  const parsed = text === null ? undefined : parseIp(text);
  if (parsed?.ok && parsed.value.version === version) return parsed.value;
  const fallback = parseIp(FALLBACK[version]);
  if (!fallback.ok) throw new Error('unreachable: the fallback networks parse');
  return fallback.value;
}

/** The networks the term is searched in (one, or one per family for an ambiguous term). */
export function searchNetworks(term: string): IpNetwork[] {
  if (isAmbiguous(term)) return [parseAs(term, 4), parseAs(prepareV6(term), 6)];
  const bare = term.split('/')[0];
  const text = isAmbiguous(bare) ? bare : prepareV6(bare);
  return [parseAs(text, text.includes(':') ? 6 : 4)];
}
