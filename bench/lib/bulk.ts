import { mainThreadMs, watchMemory } from './memory.js';
import type { ApiClient } from './client.js';
import type { Fixtures } from './fixtures.js';

/** `serverMs`: the service's main-thread CPU per round (see mainThreadMs). */
export type BulkRow = { name: string; objects: number; medianMs: number; objectsPerSecond: number; roundsMs: number[]; serverMs: number[]; peakRssMb: number };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export type BulkKind = { label: string; path: string; body: (name: string, i: number) => Record<string, unknown> };

/** What the bulk scenarios write: rooms under buildings (tree checks, tags) and tenants (flat). */
export function bulkKinds(fx: Fixtures): { kinds: BulkKind[]; notes: string[] } {
  const out: BulkKind[] = [];
  const notes: string[] = [];
  if (fx.roomType && fx.buildingIds.length && fx.activeLocationStatus) {
    out.push({
      label: 'locations', path: '/api/dcim/locations/',
      body: (name, i) => ({ name, location_type: fx.roomType, parent: fx.buildingIds[i % fx.buildingIds.length], status: fx.activeLocationStatus, tags: fx.tagIds, description: 'bench' }),
    });
  } else notes.push('bulk location writes skipped: no Room type / Building locations (database not seeded by the bench)');
  out.push({ label: 'tenants', path: '/api/tenancy/tenants/', body: (name) => ({ name, tags: fx.tagIds, description: 'bench' }) });
  return { kinds: out, notes };
}

/**
 * Bulk create, bulk PATCH and bulk DELETE of `size` objects in one request each, `rounds`
 * times after one unmeasured warm-up round (the first write of a kind compiles its code paths:
 * about twice a warm round), as the read scenarios warm up before they are measured; the median
 * round is reported. Everything created is deleted again, so the data set stays as seeded.
 */
export async function measureBulk(client: ApiClient, fx: Fixtures, opts: { pid: number; size: number; rounds: number }): Promise<{ rows: BulkRow[]; notes: string[] }> {
  const run = Date.now().toString(36);
  const { kinds: list, notes } = bulkKinds(fx);
  const rows: BulkRow[] = [];
  for (const kind of list) {
    const times: Record<'create' | 'patch' | 'delete', number[]> = { create: [], patch: [], delete: [] };
    const server: Record<'create' | 'patch' | 'delete', number[]> = { create: [], patch: [], delete: [] };
    const peaks: Record<string, number> = { create: 0, patch: 0, delete: 0 };
    const timed = async (op: 'create' | 'patch' | 'delete', method: string, body: unknown) => {
      const mem = watchMemory(opts.pid);
      const cpu = mainThreadMs(opts.pid);
      const res = await client.ok(method, kind.path, body);
      server[op].push(mainThreadMs(opts.pid) - cpu);
      peaks[op] = Math.max(peaks[op], mem.stop().peakMb);
      times[op].push(res.ms);
      return res.body;
    };
    const warmUp = async () => {
      const made = (await client.ok('POST', kind.path, Array.from({ length: opts.size }, (_, i) => kind.body(`bench-${run}-warm-${i}`, i)))).body as { id: string }[];
      await client.ok('PATCH', kind.path, made.map((o) => ({ id: o.id, description: 'warm-up' })));
      await client.ok('DELETE', kind.path, made.map((o) => ({ id: o.id })));
    };
    await warmUp();
    for (let r = 0; r < opts.rounds; r += 1) {
      const bodies = Array.from({ length: opts.size }, (_, i) => kind.body(`bench-${run}-${r}-${i}`, i));
      const made = (await timed('create', 'POST', bodies)) as { id: string }[];
      await timed('patch', 'PATCH', made.map((o) => ({ id: o.id, description: `patched ${r}` })));
      await timed('delete', 'DELETE', made.map((o) => ({ id: o.id })));
    }
    for (const op of ['create', 'patch', 'delete'] as const) {
      const ms = median(times[op]);
      rows.push({ name: `bulk ${op === 'patch' ? 'PATCH' : op} ${opts.size} ${kind.label}`, objects: opts.size, medianMs: ms, objectsPerSecond: opts.size / (ms / 1000), roundsMs: times[op], serverMs: server[op], peakRssMb: peaks[op] });
    }
  }
  return { rows, notes };
}
