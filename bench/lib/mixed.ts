import autocannon from './load-client.js';
import type { Result } from 'autocannon';
import type { ApiClient } from './client.js';
import type { Fixtures } from './fixtures.js';
import type { LoadFigures } from './load.js';
import type { ReadScenario } from './scenarios.js';

/** The mixed load of issue 22: the read mix with one write in ten, as a service written to all day sees it. */
export type MixedSettings = { connections: number; duration: number; warmup: number };

export type MixedRow = LoadFigures & { name: string; reads: number; writes: number; writeShare: number; peakRssMb: number };

/** Names of the tenants the mixed load creates (deleted again afterwards). */
const TENANT_PREFIX = 'bench-mixed-';

type Req = { method: string; path: string; headers: Record<string, string>; body?: string };

/**
 * Every tenth request is a write, alternating between a PATCH of one location's description
 * and a POST of one new tenant (both with their change records); the other nine take the read
 * mix's GET scenarios in turn (a scenario of several paths, the detail GET, takes them in turn). Each write drops the response cache, so the reads mostly render
 * afresh without asking for it.
 */
export function mixedRequests(reads: ReadScenario[], fx: Fixtures, headers: Record<string, string>, run: string): () => Req {
  const gets = reads.filter((s, k) => s.post === undefined && reads.findIndex((o) => o.paths[0] === s.paths[0]) === k);
  const turns = gets.map(() => 0);
  const json = { ...headers, 'content-type': 'application/json' };
  let i = 0;
  let writes = 0;
  return () => {
    i += 1;
    if (i % 10 !== 0 || !fx.locationIds.length) {
      const k = i % gets.length;
      return { method: 'GET', path: gets[k].paths[turns[k]++ % gets[k].paths.length], headers };
    }
    writes += 1;
    if (writes % 2 === 1) {
      const id = fx.locationIds[writes % fx.locationIds.length];
      return { method: 'PATCH', path: `/api/dcim/locations/${id}/`, headers: json, body: JSON.stringify({ description: `mixed ${run} ${writes}` }) };
    }
    return { method: 'POST', path: '/api/tenancy/tenants/', headers: json, body: JSON.stringify({ name: `${TENANT_PREFIX}${run}-${writes}` }) };
  };
}

/** One autocannon run of the mixed load (after an unrecorded warm-up); the tenants it made are deleted. */
export async function measureMixed(opts: { base: string; client: ApiClient; reads: ReadScenario[]; fx: Fixtures; headers: Record<string, string>; settings: MixedSettings }): Promise<Omit<MixedRow, 'peakRssMb'>> {
  const run = Date.now().toString(36);
  const next = mixedRequests(opts.reads, opts.fx, opts.headers, run);
  let reads = 0;
  let writes = 0;
  const spec = (duration: number) => ({
    url: opts.base,
    connections: opts.settings.connections,
    duration,
    timeout: 30,
    requests: [{
      setupRequest: () => {
        const req = next();
        if (req.method === 'GET') reads += 1;
        else writes += 1;
        return req;
      },
    }],
  });
  if (opts.settings.warmup > 0) await autocannon(spec(opts.settings.warmup));
  reads = 0;
  writes = 0;
  const r: Result = await autocannon(spec(opts.settings.duration));
  await deleteMixedTenants(opts.client);
  const total = r['2xx'] + r.non2xx;
  return {
    name: `mixed load: 90% reads, 10% writes, ${opts.settings.connections} connections, ${opts.settings.duration} s`,
    rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, mean: r.latency.average, requests: total,
    errors: r.errors, non2xx: r.non2xx, timeouts: r.timeouts, reads, writes, writeShare: writes / Math.max(1, reads + writes),
  };
}

async function deleteMixedTenants(client: ApiClient): Promise<void> {
  const made = await client.all<{ id: string }>('/api/tenancy/tenants/', `name__isw=${TENANT_PREFIX}`);
  for (let i = 0; i < made.length; i += 1000) await client.ok('DELETE', '/api/tenancy/tenants/', made.slice(i, i + 1000).map((t) => ({ id: t.id })));
}
