import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  addOffset,
  compareAddresses,
  compareNetworks,
  contains,
  containsAddress,
  findAvailableIps,
  findAvailablePrefixes,
  findFirstFreeBlock,
  formatAddress,
  formatCidr,
  formatHostCidr,
  getPrefixSize,
  getUsableRange,
  iterateAvailableIps,
  parseAddressBytes,
  parseIp,
  parsePrefix,
  toBigInt,
  toBuffer,
  toCidrBlocks,
  V4_MAPPED_BASE,
} from '../../src/core/ip/index.js';
import type { IpNetwork } from '../../src/core/ip/index.js';

function net(text: string): IpNetwork {
  const result = parseIp(text);
  if (!result.ok) throw new Error(`test setup: ${result.error.message}`);
  return result.value;
}

function prefix(text: string): IpNetwork {
  const result = parsePrefix(text);
  if (!result.ok) throw new Error(`test setup: ${result.error.message}`);
  return result.value;
}

const hex = (buf: Buffer): string => buf.toString('hex');
const host = (text: string): Buffer => net(text).host;
const cidrs = (nets: IpNetwork[]): string[] => nets.map(formatCidr);
const hosts = (nets: IpNetwork[]): string[] => nets.map(formatHostCidr);

describe('parseIp', () => {
  it('should parse an IPv4 CIDR into mapped 16-byte network and broadcast', () => {
    const value = net('10.0.0.0/8');
    assert.equal(value.version, 4);
    assert.equal(value.prefixLength, 8);
    assert.equal(hex(value.network), '00000000000000000000ffff0a000000');
    assert.equal(hex(value.broadcast), '00000000000000000000ffff0affffff');
    assert.equal(hex(value.host), hex(value.network));
  });

  it('should keep host bits of a host with mask', () => {
    const value = net('10.0.0.5/24');
    assert.equal(formatAddress(value.host, 4), '10.0.0.5');
    assert.equal(formatAddress(value.network, 4), '10.0.0.0');
    assert.equal(formatAddress(value.broadcast, 4), '10.0.0.255');
  });

  it('should read a bare host as /32 or /128', () => {
    const v4 = net('192.0.2.7');
    assert.equal(v4.prefixLength, 32);
    assert.ok(v4.network.equals(v4.host) && v4.broadcast.equals(v4.host));
    const v6 = net('::1');
    assert.deepEqual([v6.version, v6.prefixLength], [6, 128]);
    assert.equal(hex(v6.host), '00000000000000000000000000000001');
  });

  it('should parse an IPv6 CIDR', () => {
    const value = net('2001:db8::/32');
    assert.equal(value.version, 6);
    assert.equal(hex(value.network), '20010db8000000000000000000000000');
    assert.equal(hex(value.broadcast), '20010db8ffffffffffffffffffffffff');
  });

  it('should handle the edge masks /0, /31, /32, /127, /128', () => {
    const cases: [string, string, string][] = [
      ['0.0.0.0/0', '0.0.0.0', '255.255.255.255'],
      ['10.0.0.1/31', '10.0.0.0', '10.0.0.1'],
      ['10.0.0.1/32', '10.0.0.1', '10.0.0.1'],
      ['::/0', '::', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
      ['2001:db8::1/127', '2001:db8::', '2001:db8::1'],
      ['2001:db8::1/128', '2001:db8::1', '2001:db8::1'],
    ];
    for (const [text, first, last] of cases) {
      const value = net(text);
      assert.equal(formatAddress(value.network, value.version), first, text);
      assert.equal(formatAddress(value.broadcast, value.version), last, text);
    }
    assert.equal(hex(net('0.0.0.0/0').network), '00000000000000000000ffff00000000');
  });

  it('should accept an IPv4 netmask or hostmask as the mask', () => {
    assert.equal(net('10.0.0.5/255.255.255.0').prefixLength, 24);
    assert.equal(net('10.0.0.5/0.0.0.255').prefixLength, 24);
    assert.equal(net('10.0.0.5/0.0.0.0').prefixLength, 0);
  });

  it('should trim whitespace and accept upper-case IPv6', () => {
    assert.equal(formatCidr(net('  10.0.0.0/8 ')), '10.0.0.0/8');
    assert.equal(formatAddress(host('2001:0DB8:0000::0001'), 6), '2001:db8::1');
  });

  it('should read embedded IPv4 tails as inet_pton does', () => {
    const mapped = net('::ffff:10.0.0.1');
    assert.equal(mapped.version, 6);
    assert.ok(mapped.host.equals(host('10.0.0.1')), 'mapped text shares bytes with the IPv4 host');
    assert.equal(hex(host('::1.2.3.4')), '00000000000000000000000001020304');
  });

  it('should refuse malformed input with a typed error', () => {
    const cases: [string, string][] = [
      ['', 'IP_ERR_EMPTY'],
      ['   ', 'IP_ERR_EMPTY'],
      ['10.0.0.300/8', 'IP_ERR_ADDRESS'],
      ['/33', 'IP_ERR_ADDRESS'],
      ['10.0.0/8', 'IP_ERR_ADDRESS'],
      ['010.0.0.1', 'IP_ERR_ADDRESS'],
      ['0x0a.0.0.1', 'IP_ERR_ADDRESS'],
      ['1.2.3.4.5', 'IP_ERR_ADDRESS'],
      ['abc', 'IP_ERR_ADDRESS'],
      ['1::2::3', 'IP_ERR_ADDRESS'],
      ['12345::1', 'IP_ERR_ADDRESS'],
      ['00001::1', 'IP_ERR_ADDRESS'],
      ['fe80::1%eth0', 'IP_ERR_ADDRESS'],
      ['::1.2.3.04', 'IP_ERR_ADDRESS'],
      ['::1.2.3', 'IP_ERR_ADDRESS'],
      ['10.0.0.0/33', 'IP_ERR_PREFIX_LENGTH'],
      ['10.0.0.0/', 'IP_ERR_PREFIX_LENGTH'],
      ['10.0.0.0/-1', 'IP_ERR_PREFIX_LENGTH'],
      ['10.0.0.0/8/8', 'IP_ERR_PREFIX_LENGTH'],
      ['10.0.0.0/a', 'IP_ERR_PREFIX_LENGTH'],
      ['10.0.0.0/255.0.255.0', 'IP_ERR_PREFIX_LENGTH'],
      ['2001:db8::/129', 'IP_ERR_PREFIX_LENGTH'],
      ['2001:db8::/ffff::', 'IP_ERR_PREFIX_LENGTH'],
    ];
    for (const [text, code] of cases) {
      const result = parseIp(text);
      assert.equal(result.ok, false, text);
      if (!result.ok) assert.equal(result.error.code, code, text);
    }
  });

  it('should word errors as the reference does', () => {
    assert.deepEqual(parseIp('10.0.0.300/8'), {
      ok: false,
      error: { code: 'IP_ERR_ADDRESS', message: 'Invalid IP address format: 10.0.0.300/8' },
    });
    assert.deepEqual(parseIp(''), {
      ok: false,
      error: { code: 'IP_ERR_EMPTY', message: 'This field may not be blank.' },
    });
  });

  it('should sort every IPv4 address together and apart from IPv6 by bytes', () => {
    const v4 = ['0.0.0.0', '10.0.0.1', '255.255.255.255'].map(host);
    const v6 = ['2001:db8::', 'ffff::'].map(host);
    assert.ok(v4.every((a) => v6.every((b) => compareAddresses(a, b) < 0)));
    assert.ok(v4.every((a) => toBigInt(a) >= V4_MAPPED_BASE && toBigInt(a) <= V4_MAPPED_BASE + 0xffffffffn));
  });
});

describe('parsePrefix', () => {
  it('should normalise host bits and report them', () => {
    const result = parsePrefix('10.0.0.5/8');
    assert.ok(result.ok);
    assert.equal(result.hostBitsSet, true);
    assert.equal(formatCidr(result.value), '10.0.0.0/8');
    assert.ok(result.value.host.equals(result.value.network));
  });

  it('should report no host bits for a clean prefix', () => {
    for (const text of ['10.0.0.0/8', '2001:db8::/32', '0.0.0.0/0', '::/0', '10.0.0.5/32']) {
      const result = parsePrefix(text);
      assert.ok(result.ok && !result.hostBitsSet, text);
    }
  });

  it('should pass parse errors through', () => {
    const result = parsePrefix('10.0.0.0/33');
    assert.ok(!result.ok && result.error.code === 'IP_ERR_PREFIX_LENGTH');
  });
});

describe('formatAddress', () => {
  it('should print canonical text that parses back to the same bytes', () => {
    const texts = [
      '10.0.0.0', '0.0.0.0', '255.255.255.255', '2001:db8::', '::', '::1', '2001:db8::1:0:0:1',
      '2001:0:0:1::1', 'fe80::1', '1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:0', '::ffff:10.0.0.1',
      '::ffff:0.0.0.0', '::1.2.3.4', '::100', '::ffff:0:1:0',
    ];
    for (const text of texts) {
      const value = net(text);
      assert.equal(formatAddress(value.host, value.version), text);
    }
  });

  it('should print prefixes and hosts with their mask', () => {
    assert.equal(formatCidr(prefix('2001:db8::5/32')), '2001:db8::/32');
    assert.equal(formatHostCidr(net('10.0.0.5/24')), '10.0.0.5/24');
    assert.equal(formatHostCidr(net('2001:db8::5/64')), '2001:db8::5/64');
  });
});

describe('math', () => {
  it('should convert between buffers and integers', () => {
    const max = (1n << 128n) - 1n;
    for (const value of [0n, 1n, V4_MAPPED_BASE, max]) assert.equal(toBigInt(toBuffer(value)), value);
    assert.equal(hex(toBuffer(max)), 'f'.repeat(32));
    assert.throws(() => toBuffer(-1n), RangeError);
    assert.throws(() => toBuffer(max + 1n), RangeError);
    assert.throws(() => toBigInt(Buffer.alloc(4)), RangeError);
  });

  it('should add offsets across byte boundaries', () => {
    assert.equal(formatAddress(addOffset(host('10.0.0.255'), 1n), 4), '10.0.1.0');
    assert.equal(formatAddress(addOffset(host('10.0.1.0'), -1n), 4), '10.0.0.255');
    assert.equal(formatAddress(addOffset(host('2001:db8::ffff'), 1n), 6), '2001:db8::1:0');
    assert.throws(() => addOffset(host('::'), -1n), RangeError);
  });

  it('should size prefixes', () => {
    assert.equal(getPrefixSize(net('10.0.0.0/24')), 256n);
    assert.equal(getPrefixSize(net('0.0.0.0/0')), 1n << 32n);
    assert.equal(getPrefixSize(net('10.0.0.0/32')), 1n);
    assert.equal(getPrefixSize(net('2001:db8::/64')), 1n << 64n);
    assert.equal(getPrefixSize(net('::/0')), 1n << 128n);
    assert.equal(getPrefixSize(net('::1/128')), 1n);
  });

  it('should test containment within one family', () => {
    assert.ok(contains(net('10.0.0.0/8'), net('10.1.0.0/16')));
    assert.ok(!contains(net('10.1.0.0/16'), net('10.0.0.0/8')));
    assert.ok(contains(net('10.0.0.0/8'), net('10.0.0.0/8')));
    assert.ok(contains(net('0.0.0.0/0'), net('255.255.255.255/32')));
    assert.ok(!contains(net('10.0.0.0/8'), net('11.0.0.0/8')));
    assert.ok(!contains(net('::/0'), net('10.0.0.0/8')), 'IPv6 ::/0 holds no IPv4 prefix');
    assert.ok(!contains(net('::ffff:0:0/96'), net('10.0.0.0/8')), 'mapped v6 space is not v4');
    assert.ok(contains(net('2001:db8::/32'), net('2001:db8:ffff::/48')));
    assert.ok(containsAddress(net('10.0.0.0/24'), host('10.0.0.255')));
    assert.ok(!containsAddress(net('10.0.0.0/24'), host('10.0.1.0')));
  });

  it('should order networks by version, network, then length', () => {
    const texts = ['2001:db8::/32', '10.0.0.0/16', '::/0', '10.0.0.0/8', '9.0.0.0/8', '::1/128'];
    const sorted = texts.map(net).sort(compareNetworks).map(formatCidr);
    assert.deepEqual(sorted, ['9.0.0.0/8', '10.0.0.0/8', '10.0.0.0/16', '::/0', '::1/128', '2001:db8::/32']);
  });
});

/** Which of the 256 addresses of 10.0.0.0/24 the blocks cover. */
function toBitmap(blocks: IpNetwork[]): boolean[] {
  const map = new Array<boolean>(256).fill(false);
  for (const block of blocks) {
    for (let b = 0; b < Number(getPrefixSize(block)); b++) map[block.network[15]! + b] = true;
  }
  return map;
}

describe('findAvailablePrefixes', () => {
  it('should return the parent when nothing is allocated', () => {
    assert.deepEqual(cidrs(findAvailablePrefixes(net('10.0.0.0/24'), [])), ['10.0.0.0/24']);
  });

  it('should return a minimal CIDR list around allocated blocks', () => {
    const parent = net('10.0.0.0/24');
    assert.deepEqual(cidrs(findAvailablePrefixes(parent, [net('10.0.0.0/26')])), ['10.0.0.64/26', '10.0.0.128/25']);
    assert.deepEqual(cidrs(findAvailablePrefixes(parent, [net('10.0.0.64/26')])), ['10.0.0.0/26', '10.0.0.128/25']);
    assert.deepEqual(cidrs(findAvailablePrefixes(parent, [net('10.0.0.5/32')])), [
      '10.0.0.0/30', '10.0.0.4/32', '10.0.0.6/31', '10.0.0.8/29', '10.0.0.16/28', '10.0.0.32/27',
      '10.0.0.64/26', '10.0.0.128/25',
    ]);
  });

  it('should accept unsorted, nested and foreign children', () => {
    const children = ['10.0.0.128/25', '10.0.0.0/26', '10.0.0.0/28', '10.0.1.0/24', '2001:db8::/32'].map(net);
    assert.deepEqual(cidrs(findAvailablePrefixes(net('10.0.0.0/24'), children)), ['10.0.0.64/26']);
  });

  it('should return nothing when fully allocated', () => {
    assert.deepEqual(findAvailablePrefixes(net('10.0.0.0/24'), [net('10.0.0.0/24')]), []);
    const halves = [net('10.0.0.128/25'), net('10.0.0.0/25')];
    assert.deepEqual(findAvailablePrefixes(net('10.0.0.0/24'), halves), []);
    assert.deepEqual(findAvailablePrefixes(net('10.0.0.0/24'), [net('10.0.0.0/8')]), []);
  });

  it('should handle /0 parents in both families', () => {
    assert.deepEqual(cidrs(findAvailablePrefixes(net('0.0.0.0/0'), [net('10.0.0.0/8')])), [
      '0.0.0.0/5', '8.0.0.0/7', '11.0.0.0/8', '12.0.0.0/6', '16.0.0.0/4', '32.0.0.0/3', '64.0.0.0/2', '128.0.0.0/1',
    ]);
    assert.deepEqual(cidrs(findAvailablePrefixes(net('::/0'), [net('::/1')])), ['8000::/1']);
    assert.equal(findAvailablePrefixes(net('::/0'), [net('::1/128')]).length, 128);
  });

  it('should split a large IPv6 prefix', () => {
    const free = cidrs(findAvailablePrefixes(net('2001:db8::/32'), [net('2001:db8::/48')]));
    assert.equal(free.length, 16);
    assert.deepEqual(free.slice(0, 3), ['2001:db8:1::/48', '2001:db8:2::/47', '2001:db8:4::/46']);
    assert.equal(free.at(-1), '2001:db8:8000::/33');
  });

  it('should match an address bitmap on random allocations, with no mergeable neighbours', () => {
    let seed = 7;
    const random = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let round = 0; round < 200; round++) {
      const children = Array.from({ length: random(6) }, () => net(`10.0.0.${random(256)}/${24 + random(9)}`));
      const free = findAvailablePrefixes(net('10.0.0.0/24'), children);
      assert.deepEqual(toBitmap(free), toBitmap(children).map((used) => !used));
      for (let i = 1; i < free.length; i++) {
        const [a, b] = [free[i - 1]!, free[i]!];
        const buddies = a.prefixLength === b.prefixLength && a.network[15]! % (2 * Number(getPrefixSize(a))) === 0;
        assert.ok(!(buddies && toBigInt(a.broadcast) + 1n === toBigInt(b.network)), 'blocks could merge');
      }
    }
  });
});

describe('toCidrBlocks and findFirstFreeBlock', () => {
  it('should split an arbitrary range into aligned blocks', () => {
    const range = { version: 4 as const, first: toBigInt(host('10.0.0.1')), last: toBigInt(host('10.0.0.6')) };
    assert.deepEqual(cidrs(toCidrBlocks(range)), ['10.0.0.1/32', '10.0.0.2/31', '10.0.0.4/31', '10.0.0.6/32']);
  });

  it('should place a new prefix in the first block that fits', () => {
    const free = [net('10.0.0.64/26'), net('10.0.0.128/25')];
    assert.equal(formatCidr(findFirstFreeBlock(free, 25)!), '10.0.0.128/25');
    assert.equal(formatCidr(findFirstFreeBlock(free, 27)!), '10.0.0.64/27');
    assert.equal(findFirstFreeBlock(free, 24), null);
  });
});

describe('findAvailableIps', () => {
  it('should skip the IPv4 network and broadcast addresses', () => {
    const parent = net('10.0.0.0/24');
    assert.deepEqual(hosts(findAvailableIps({ parent, used: [], count: 3 })), ['10.0.0.1/24', '10.0.0.2/24', '10.0.0.3/24']);
    const all = findAvailableIps({ parent, used: [], count: 1000 });
    assert.equal(all.length, 254);
    assert.equal(formatHostCidr(all.at(-1)!), '10.0.0.254/24');
  });

  it('should skip used hosts given in any order, duplicated or outside', () => {
    const used = ['10.0.0.2', '10.0.0.1', '10.0.0.2', '10.0.0.4', '10.0.1.1', '2001:db8::'].map(host);
    const free = findAvailableIps({ parent: net('10.0.0.0/24'), used, count: 3 });
    assert.deepEqual(hosts(free), ['10.0.0.3/24', '10.0.0.5/24', '10.0.0.6/24']);
  });

  it('should offer every address of a pool', () => {
    const free = findAvailableIps({ parent: net('10.0.0.0/24'), used: [], count: 1000, isPool: true });
    assert.equal(free.length, 256);
    assert.deepEqual([formatHostCidr(free[0]!), formatHostCidr(free.at(-1)!)], ['10.0.0.0/24', '10.0.0.255/24']);
  });

  it('should offer every address of IPv4 /31 and /32, and trim /30 and /0', () => {
    const list = (text: string): string[] => hosts(findAvailableIps({ parent: net(text), used: [], count: 5 }));
    assert.deepEqual(list('10.0.0.0/31'), ['10.0.0.0/31', '10.0.0.1/31']);
    assert.deepEqual(list('10.0.0.7/32'), ['10.0.0.7/32']);
    assert.deepEqual(list('10.0.0.0/30'), ['10.0.0.1/30', '10.0.0.2/30']);
    assert.deepEqual(list('0.0.0.0/0').slice(0, 2), ['0.0.0.1/0', '0.0.0.2/0']);
    const range = getUsableRange({ parent: net('0.0.0.0/0') });
    assert.equal(formatAddress(toBuffer(range.last), 4), '255.255.255.254');
  });

  it('should offer every IPv6 address by default, as Nautobot 2.4 does', () => {
    const free = findAvailableIps({ parent: net('2001:db8::/64'), used: [], count: 2 });
    assert.deepEqual(hosts(free), ['2001:db8::/64', '2001:db8::1/64']);
  });

  it('should hold back the IPv6 subnet-router anycast address when asked, except pools, /127 and /128', () => {
    const list = (text: string, isPool = false): string[] =>
      hosts(findAvailableIps({ parent: net(text), used: [], count: 2, isPool, reserveV6Anycast: true }));
    assert.deepEqual(list('2001:db8::/64'), ['2001:db8::1/64', '2001:db8::2/64']);
    assert.deepEqual(list('2001:db8::/64', true), ['2001:db8::/64', '2001:db8::1/64']);
    assert.deepEqual(list('2001:db8::/127'), ['2001:db8::/127', '2001:db8::1/127']);
    assert.deepEqual(list('2001:db8::1/128'), ['2001:db8::1/128']);
  });

  it('should stay lazy on huge IPv6 prefixes', () => {
    const parent = net('2001:db8::/64');
    const used = Array.from({ length: 1000 }, (_, i) => addOffset(parent.network, BigInt(i)));
    assert.deepEqual(hosts(findAvailableIps({ parent, used, count: 1 })), ['2001:db8::3e8/64']);
    const iterator = iterateAvailableIps({ parent: net('::/0'), used: [] });
    assert.equal(formatHostCidr(iterator.next().value!), '::/0');
    assert.equal(formatHostCidr(iterator.next().value!), '::1/0');
    const tail = findAvailableIps({ parent, used: [], count: 1, rangeStart: parent.broadcast });
    assert.deepEqual(hosts(tail), ['2001:db8::ffff:ffff:ffff:ffff/64']);
  });

  it('should clip to range_start and range_end', () => {
    const parent = net('10.0.0.0/24');
    const used = [host('10.0.0.11')];
    const free = findAvailableIps({ parent, used, count: 10, rangeStart: host('10.0.0.10'), rangeEnd: host('10.0.0.13') });
    assert.deepEqual(hosts(free), ['10.0.0.10/24', '10.0.0.12/24', '10.0.0.13/24']);
    const outside = findAvailableIps({ parent, used: [], count: 10, rangeStart: host('10.0.1.0') });
    assert.deepEqual(outside, []);
    const clipped = findAvailableIps({ parent, used: [], count: 1, rangeStart: host('9.0.0.0') });
    assert.deepEqual(hosts(clipped), ['10.0.0.1/24']);
  });

  it('should return nothing when every address is used or count is 0', () => {
    const parent = net('10.0.0.0/30');
    assert.deepEqual(findAvailableIps({ parent, used: [host('10.0.0.1'), host('10.0.0.2')], count: 5 }), []);
    assert.deepEqual(findAvailableIps({ parent, used: [], count: 0 }), []);
  });
});

describe('parseAddressBytes', () => {
  it("is parseIp's host for a single address and null for anything else", () => {
    const inputs = ['10.0.0.1', ' 10.0.0.1 ', '10.0.0.1/24', '', ' ', '::', '2001:db8::1', '::ffff:1.2.3.4', '1.2.3', '256.1.1.1', 'abc', '1.2.3.4/', '2001:db8::/64', '1:2:3:4:5:6:7:8:9', '\t10.1.1.1\n'];
    for (const text of inputs) {
      const parsed = parseIp(text);
      const expected = parsed.ok && !text.includes('/') ? parsed.value.host : null;
      assert.deepEqual(parseAddressBytes(text), expected, JSON.stringify(text));
    }
  });
});
