/**
 * Network lookups as query parameters (API-SPEC "Network lookup semantics", api-behaviour.md
 * section 0): every one is a range or equality comparison on the indexed 16-byte columns
 * (`network`/`broadcast` of prefixes, `host` of IP addresses) plus `ip_version`, the same SQL
 * on every database.
 */
import { buildNetwork, parseIp, toBigInt } from '../../../core/ip/index.js';
import { and, col, not, or } from '../../../db/query/sql-helpers.js';
import { storableInteger } from '../../../ops/filters/integer-range.js';
import { FilterError, invalidChoice } from '../../../ops/filters/resolve-values.js';
import type { IpNetwork } from '../../../core/ip/index.js';
import type { Clause } from '../../../db/query/sql-helpers.js';
import type { FilterDef } from '../../../ops/filters/filter-set.js';

/** Lookup suffixes of the spec's network table (besides exact and `n`). */
export const NET_LOOKUPS = ['net_contained', 'net_contained_or_equal', 'net_contains', 'net_contains_or_equals', 'net_equals', 'net_host', 'net_host_contained', 'net_in', 'family'] as const;

type NetLookup = Exclude<(typeof NET_LOOKUPS)[number], 'family'>;

/** Predicates of one model for a parsed value; `exact` also gets the text (bare host or CIDR). */
export type NetOps = Record<NetLookup, (net: IpNetwork) => Clause> & { exact: (net: IpNetwork, text: string) => Clause };

/** Parses a filter value as a network or host; a malformed one is a 400 naming the parameter. */
export function parseNetValue(raw: string): IpNetwork {
  const parsed = parseIp(raw);
  if (!parsed.ok) throw new FilterError(parsed.error.message);
  return parsed.value;
}

/** `ip_version = v` for `family` / `ip_version` values (4 or 6). */
export function familyClause(table: string, values: string[], opts: { choice: boolean }): Clause {
  const versions = values.map((raw) => {
    const text = raw.trim();
    if (text === '4' || text === '6') return Number(text);
    if (opts.choice) throw invalidChoice(raw);
    if (!/^-?\d+$/.test(text)) throw new FilterError('Enter a number.');
    return storableInteger(text);
  });
  return (eb) => eb(col(table, 'ip_version'), 'in', versions);
}

/** Clauses over a prefix-like table with network, broadcast, prefix_length and ip_version. */
export function rangeOps(table: string): NetOps {
  const c = (name: string) => col(table, name);
  const version = (net: IpNetwork): Clause => (eb) => eb(c('ip_version'), '=', net.version);
  const inside = (net: IpNetwork, op: '>' | '>='): Clause => and([version(net), (eb) => eb(c('network'), '>=', net.network), (eb) => eb(c('network'), '<=', net.broadcast), (eb) => eb(c('broadcast'), '<=', net.broadcast), (eb) => eb(c('prefix_length'), op, net.prefixLength)]);
  const around = (net: IpNetwork, op: '<' | '<='): Clause => and([version(net), (eb) => eb(c('network'), '<=', net.network), (eb) => eb(c('broadcast'), '>=', net.broadcast), (eb) => eb(c('prefix_length'), op, net.prefixLength)]);
  const equals = (net: IpNetwork): Clause => and([version(net), (eb) => eb(c('network'), '=', net.network), (eb) => eb(c('prefix_length'), '=', net.prefixLength)]);
  const networkIn = (net: IpNetwork): Clause => and([version(net), (eb) => eb(c('network'), '>=', net.network), (eb) => eb(c('network'), '<=', net.broadcast)]);
  return {
    exact: equals,
    net_contained: (net) => inside(net, '>'),
    net_contained_or_equal: (net) => inside(net, '>='),
    net_contains: (net) => around(net, '<'),
    net_contains_or_equals: (net) => around(net, '<='),
    net_equals: equals,
    net_host: (net) => and([version(net), (eb) => eb(c('network'), '<=', net.host), (eb) => eb(c('broadcast'), '>=', net.host)]),
    net_host_contained: networkIn,
    net_in: networkIn,
  };
}

/**
 * Clauses over an address table (host, mask_length, ip_version). An address's own network is
 * not stored, so "contains" is one indexed range per candidate mask length.
 */
export function hostOps(table: string): NetOps {
  const c = (name: string) => col(table, name);
  const version = (net: IpNetwork): Clause => (eb) => eb(c('ip_version'), '=', net.version);
  const hostIn = (net: IpNetwork): Clause => and([version(net), (eb) => eb(c('host'), '>=', net.network), (eb) => eb(c('host'), '<=', net.broadcast)]);
  const masked = (net: IpNetwork, op: '>' | '>='): Clause => and([hostIn(net), (eb) => eb(c('mask_length'), op, net.prefixLength)]);
  const around = (net: IpNetwork, longest: number): Clause => or(Array.from({ length: longest + 1 }, (_, length) => {
    const block = buildNetwork({ version: net.version, prefixLength: length, host: toBigInt(net.network) });
    return and([hostIn(block), (eb) => eb(c('mask_length'), '=', length)]);
  }));
  const equals = (net: IpNetwork): Clause => and([version(net), (eb) => eb(c('host'), '=', net.host), (eb) => eb(c('mask_length'), '=', net.prefixLength)]);
  return {
    exact: (net, text) => (text.includes('/') ? equals(net) : and([version(net), (eb) => eb(c('host'), '=', net.host)])),
    net_contained: (net) => masked(net, '>'),
    net_contained_or_equal: (net) => masked(net, '>='),
    net_contains: (net) => around(net, net.prefixLength - 1),
    net_contains_or_equals: (net) => around(net, net.prefixLength),
    net_equals: equals,
    net_host: (net) => around({ ...net, network: net.host, prefixLength: net.version === 4 ? 32 : 128 }, net.version === 4 ? 32 : 128),
    net_host_contained: hostIn,
    net_in: hostIn,
  };
}

/** Values of one parameter: repeated values, and for `net_in` also comma-separated lists. */
function splitValues(lookup: string, values: string[]): string[] {
  return lookup === 'net_in' ? values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean) : values;
}

/** A filter family `<name>`, `<name>__n` and `<name>__<net lookup>` over `ops`. */
export function networkFilter(table: string, ops: NetOps): FilterDef {
  return {
    lookups: new Set(['n', ...NET_LOOKUPS]),
    async build(_ctx, lookup, values) {
      if (lookup === 'family') return familyClause(table, values, { choice: true });
      const texts = splitValues(lookup, values);
      const nets = texts.map((text) => [parseNetValue(text), text.trim()] as const);
      if (lookup === 'exact' || lookup === 'n') {
        const match = or(nets.map(([net, text]) => ops.exact(net, text)));
        return lookup === 'n' ? not(match) : match;
      }
      return or(nets.map(([net]) => ops[lookup as NetLookup](net)));
    },
  };
}

/** A filter that applies one fixed lookup of `ops` (the reference's `within`, `contains`, ...). */
export function fixedNetFilter(pick: (net: IpNetwork, text: string) => Clause): FilterDef {
  return {
    lookups: new Set(),
    async build(_ctx, _lookup, values) {
      return or(values.map((text) => pick(parseNetValue(text), text.trim())));
    },
  };
}
