import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer } from '../helpers/server.js';
import type { Server } from '../helpers/server.js';

/**
 * Issue 17, defects 5 and 6: concurrent clients against two worker processes (PostgreSQL, or a
 * SQLite file whose writers take turns). Every acknowledged write must survive; every address
 * must end under its closest prefix.
 */
const GUARD = { timeout: 240_000 };
let s: Server;

before(async () => {
  s = await startServer({ workers: 2 });
});
after(() => s.stop());

async function ok(res: Promise<{ status: number; body: any }>, expected: number[] = [200, 201, 204]): Promise<any> {
  const answer = await res;
  if (!expected.includes(answer.status)) throw new Error(`${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

describe('PATCH custom_fields of one object from six clients at once', () => {
  it('should keep every client\'s last acknowledged value (no lost update)', GUARD, async () => {
    const clients = 6;
    const rounds = 15;
    for (let i = 0; i < clients; i += 1) await ok(s.call('POST', '/api/extras/custom-fields/', { label: `Key ${i}`, key: `cf_${i}`, type: 'text', content_types: ['tenancy.tenant'] }));
    const tenant = await ok(s.call('POST', '/api/tenancy/tenants/', { name: 'shared' }));
    await Promise.all(Array.from({ length: clients }, async (_, i) => {
      for (let k = 0; k < rounds; k += 1) await ok(s.call('PATCH', `/api/tenancy/tenants/${tenant.id}/`, { custom_fields: { [`cf_${i}`]: `v${i}-${k}` } }));
    }));
    const final = await ok(s.call('GET', `/api/tenancy/tenants/${tenant.id}/`));
    const lost = Array.from({ length: clients }, (_, i) => `cf_${i}`).filter((key, i) => final.custom_fields[key] !== `v${i}-${rounds - 1}`);
    assert.deepEqual(lost, [], `lost updates: ${JSON.stringify(final.custom_fields)}`);
  });
});

describe('PATCH /api/users/config/ from four clients at once', () => {
  it('should keep every client\'s last acknowledged key (deep merge, no lost update)', GUARD, async () => {
    const clients = 4;
    const rounds = 15;
    await Promise.all(Array.from({ length: clients }, async (_, i) => {
      for (let k = 0; k < rounds; k += 1) await ok(s.call('PATCH', '/api/users/config/', { shared: { [`k${i}`]: k } }));
    }));
    const config = await ok(s.call('GET', '/api/users/config/'));
    assert.deepEqual(config.shared, Object.fromEntries(Array.from({ length: clients }, (_, i) => [`k${i}`, rounds - 1])));
  });
});

type Net = { id: string; first: bigint; last: bigint; length: number };

function toNumber(ip: string): bigint {
  return ip.split('.').reduce((n, part) => (n << 8n) + BigInt(Number(part)), 0n);
}

function toNet(p: { id: string; prefix: string }): Net {
  const [address, length] = p.prefix.split('/');
  const size = 1n << BigInt(32 - Number(length));
  const first = toNumber(address);
  return { id: p.id, first, last: first + size - 1n, length: Number(length) };
}

describe('available-ips allocations while /24 children are created and deleted', () => {
  it('should leave every address under its closest prefix (no orphan, no stale parent)', GUARD, async () => {
    const parent = await ok(s.call('POST', '/api/ipam/prefixes/', { prefix: '10.50.0.0/22', status: 'Active', type: 'network' }));
    const allocate = async (rounds: number) => {
      for (let k = 0; k < rounds; k += 1) await ok(s.call('POST', `/api/ipam/prefixes/${parent.id}/available-ips/`, k % 2 ? [{ status: 'Active' }, { status: 'Active' }] : { status: 'Active' }));
    };
    const churn = async (offset: number, rounds: number) => {
      for (let k = 0; k < rounds; k += 1) {
        const child = await ok(s.call('POST', '/api/ipam/prefixes/', { prefix: `10.50.${(offset + k) % 4}.0/24`, status: 'Active', type: 'network' }), [201, 400]);
        if (child?.id) await ok(s.call('DELETE', `/api/ipam/prefixes/${child.id}/`));
      }
    };
    await Promise.all([allocate(20), allocate(20), allocate(20), churn(0, 12), churn(2, 12), (async () => {
      // A /24 that stays: addresses allocated in it must end under it.
      await ok(s.call('POST', '/api/ipam/prefixes/', { prefix: '10.50.3.0/24', status: 'Active', type: 'network' }), [201, 400]);
    })()]);
    const prefixes = (await ok(s.call('GET', '/api/ipam/prefixes/?limit=0'))).results.map(toNet) as Net[];
    const ips = (await ok(s.call('GET', '/api/ipam/ip-addresses/?limit=0'))).results as { id: string; host: string; parent: { id: string } | null }[];
    assert.equal(ips.length, 90);
    const wrong = ips.filter((ip) => {
      const host = toNumber(ip.host);
      const closest = prefixes.filter((p) => p.first <= host && host <= p.last).sort((a, b) => b.length - a.length)[0];
      return ip.parent?.id !== closest?.id;
    });
    const orphans = ips.filter((ip) => ip.parent === null);
    assert.equal(orphans.length, 0, `${orphans.length} orphaned addresses`);
    assert.deepEqual(wrong.map((ip) => ip.host), [], `${wrong.length} addresses under a prefix that is not their closest`);
  });
});
