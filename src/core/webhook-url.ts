import { BlockList, isIP } from 'node:net';
import { lookup } from 'node:dns/promises';

/**
 * The webhook URL policy (the reference's nautobot/extras/webhooks.py), checked when a webhook is
 * saved (the URL's form, and its host when it is an address) and again before each delivery
 * (every address the host resolves to; the request is then pinned to the checked address).
 *
 * - Built-in block: loopback, link-local (cloud metadata), multicast, unspecified and reserved
 *   ranges (as netaddr's `is_reserved`, whose `::/8` covers IPv4-mapped IPv6).
 * - `additionalBlockedNetworks` (WEBHOOK_ADDITIONAL_BLOCKED_NETWORKS) extends it.
 * - `allowedHosts` (WEBHOOK_ALLOWED_HOSTS), matched as Django's ALLOWED_HOSTS (`name`,
 *   `.domain` for it and its subdomains, `*`), lifts the additional block, as the reference's;
 *   beyond the reference, a host named explicitly (not `*`, not a `.domain` pattern) also lifts
 *   the built-in block, so a receiver on 127.0.0.1 can serve in development and tests.
 */
export type WebhookUrlPolicy = { allowedHosts: string[]; additionalBlockedNetworks: string[]; allowedSchemes: string[] };

/** A URL the policy refuses; `message` is the reference's wording. */
export class WebhookUrlError extends Error {}

const BUILTIN: [string, number, 'ipv4' | 'ipv6'][] = [
  ['127.0.0.0', 8, 'ipv4'], ['169.254.0.0', 16, 'ipv4'], ['224.0.0.0', 4, 'ipv4'], ['240.0.0.0', 4, 'ipv4'],
  ['0.0.0.0', 8, 'ipv4'], ['192.0.2.0', 24, 'ipv4'], ['198.51.100.0', 24, 'ipv4'], ['203.0.113.0', 24, 'ipv4'],
  ['::1', 128, 'ipv6'], ['fe80::', 10, 'ipv6'], ['ff00::', 8, 'ipv6'], ['::', 8, 'ipv6'], ['100::', 8, 'ipv6'],
  ['200::', 7, 'ipv6'], ['400::', 6, 'ipv6'], ['800::', 5, 'ipv6'], ['1000::', 4, 'ipv6'], ['4000::', 3, 'ipv6'],
  ['6000::', 3, 'ipv6'], ['8000::', 3, 'ipv6'], ['a000::', 3, 'ipv6'], ['c000::', 3, 'ipv6'], ['e000::', 4, 'ipv6'],
  ['f000::', 5, 'ipv6'], ['f800::', 6, 'ipv6'], ['fe00::', 9, 'ipv6'],
];

/**
 * One block list per family: Node's BlockList also checks an IPv4 address against IPv6 rules
 * (as IPv4-mapped), where `::/8` would then block every IPv4 address.
 */
const builtinBlock = { ipv4: new BlockList(), ipv6: new BlockList() };
for (const [net, prefix, type] of BUILTIN) builtinBlock[type].addSubnet(net, prefix, type);

/** The additional networks as a block list; throws naming the first that is not a CIDR (checked at start). */
export function parseBlockedNetworks(cidrs: string[]): BlockList {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [net, prefixText] = cidr.split('/');
    const type = isIP(net);
    const prefix = prefixText === undefined ? (type === 6 ? 128 : 32) : Number(prefixText);
    if (type === 0 || !Number.isInteger(prefix) || prefix < 0 || prefix > (type === 6 ? 128 : 32)) {
      throw new Error(`WEBHOOK_ADDITIONAL_BLOCKED_NETWORKS: "${cidr}" is not a network (CIDR)`);
    }
    list.addSubnet(net, prefix, type === 6 ? 'ipv6' : 'ipv4');
  }
  return list;
}

/** How the allow list applies to `host`: `explicit` (named), `pattern` (`*` or `.domain`), or not at all. */
function allowance(host: string, allowedHosts: string[]): 'explicit' | 'pattern' | null {
  const name = host.toLowerCase().replace(/\.$/, '');
  let found: 'explicit' | 'pattern' | null = null;
  for (const raw of allowedHosts) {
    const pattern = raw.toLowerCase().replace(/\.$/, '');
    if (pattern === name || pattern === `[${name}]` || `[${pattern}]` === name) return 'explicit';
    if (pattern === '*' || (pattern.startsWith('.') && (name === pattern.slice(1) || name.endsWith(pattern)))) found = 'pattern';
  }
  return found;
}

/** Checks scheme and syntax; returns the URL and its bare host (IPv6 without brackets). */
function parseUrl(url: string, policy: WebhookUrlPolicy): { parsed: URL; host: string } {
  if (!url) throw new WebhookUrlError('Webhook URL is required.');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new WebhookUrlError('Enter a valid URL.');
  }
  const scheme = parsed.protocol.replace(/:$/, '').toLowerCase();
  if (!policy.allowedSchemes.map((s) => s.toLowerCase()).includes(scheme)) {
    throw new WebhookUrlError(`Webhook URL scheme '${scheme}' is not permitted; allowed schemes are: ${policy.allowedSchemes.join(', ')}.`);
  }
  if (!parsed.hostname) throw new WebhookUrlError('Webhook URL must include a host.');
  return { parsed, host: parsed.hostname.replace(/^\[(.*)\]$/, '$1') };
}

function checkAddress(host: string, address: string, policy: WebhookUrlPolicy, allowed: 'explicit' | 'pattern' | null): void {
  const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  if (allowed !== 'explicit' && builtinBlock[type].check(address, type)) {
    throw new WebhookUrlError(`Webhook URL host '${host}' is not permitted (resolves to a reserved/loopback/link-local address).`);
  }
  if (allowed === null && parseBlockedNetworks(policy.additionalBlockedNetworks).check(address, type)) {
    throw new WebhookUrlError(`Webhook URL host '${host}' is not permitted. Add the host to WEBHOOK_ALLOWED_HOSTS if this target is intentional.`);
  }
}

/** Save-time check: scheme, syntax, and the block lists for a host written as an address (no DNS look-up). */
export function checkWebhookUrlFormat(url: string, policy: WebhookUrlPolicy): void {
  const { host } = parseUrl(url, policy);
  if (isIP(host)) checkAddress(host, host, policy, allowance(host, policy.allowedHosts));
}

/** Send-time check: as at save, plus every address the host resolves to; returns the address to connect to. */
export async function resolveWebhookUrl(url: string, policy: WebhookUrlPolicy): Promise<{ url: URL; address: string; family: 4 | 6 }> {
  const { parsed, host } = parseUrl(url, policy);
  const allowed = allowance(host, policy.allowedHosts);
  if (isIP(host)) {
    checkAddress(host, host, policy, allowed);
    return { url: parsed, address: host, family: isIP(host) as 4 | 6 };
  }
  let found: { address: string; family: number }[];
  try {
    found = await lookup(host, { all: true });
  } catch {
    throw new WebhookUrlError(`Unable to resolve webhook host '${host}'.`);
  }
  for (const entry of found) checkAddress(host, entry.address, policy, allowed);
  return { url: parsed, address: found[0].address, family: found[0].family as 4 | 6 };
}
