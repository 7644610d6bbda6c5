import http from 'node:http';
import { bulkKinds } from './bulk.js';
import { mainThreadMs, watchMemory } from './memory.js';
import type { AddressInfo } from 'node:net';
import type { ApiClient } from './client.js';
import type { BulkRow } from './bulk.js';
import type { Fixtures } from './fixtures.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** A receiver on 127.0.0.1 that answers 200 and counts deliveries; `reached(n)` resolves once n arrived (false after `timeoutMs`). */
async function countingReceiver(): Promise<{ url: string; count: () => number; reached: (n: number, timeoutMs: number) => Promise<boolean>; close: () => Promise<void> }> {
  let count = 0;
  let waiter: (() => void) | null = null;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      count += 1;
      res.end('ok');
      waiter?.();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    count: () => count,
    reached: (n, timeoutMs) => new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(count >= n), timeoutMs);
      waiter = () => {
        if (count < n) return;
        clearTimeout(timer);
        resolve(true);
      };
      waiter();
    }),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * Bulk create of `size` rooms with a webhook on locations' creation configured (issue 20: the
 * event is written in the write's transaction, delivery happens later), measured as the bulk
 * create beside it (a warm-up round, then the median of `rounds`). Each round's deliveries are
 * awaited, unmeasured, before the next round, so they do not load the next one; the objects are
 * deleted again (the webhook does not fire on delete). Needs WEBHOOK_ALLOWED_HOSTS=127.0.0.1 on the
 * service.
 */
export async function measureBulkWithWebhook(client: ApiClient, fx: Fixtures, opts: { pid: number; size: number; rounds: number; deliveryTimeoutMs?: number }): Promise<{ rows: BulkRow[]; notes: string[] }> {
  const kind = bulkKinds(fx).kinds.find((k) => k.label === 'locations');
  if (!kind) return { rows: [], notes: ['bulk create with a webhook skipped: no Room type / Building locations (database not seeded by the bench)'] };
  const receiver = await countingReceiver();
  const run = Date.now().toString(36);
  const hook = (await client.ok('POST', '/api/extras/webhooks/', { name: `bench-${run}`, content_types: ['dcim.location'], type_create: true, payload_url: receiver.url })).body as { id: string };
  const times: number[] = [];
  const serverMs: number[] = [];
  const deliveryMs: number[] = [];
  const notes: string[] = [];
  let peak = 0;
  try {
    for (let r = -1; r < opts.rounds; r += 1) {
      const bodies = Array.from({ length: opts.size }, (_, i) => kind.body(`bench-${run}-hook-${r}-${i}`, i));
      const mem = watchMemory(opts.pid);
      const cpu = mainThreadMs(opts.pid);
      const res = await client.ok('POST', kind.path, bodies);
      if (r >= 0) {
        times.push(res.ms);
        serverMs.push(mainThreadMs(opts.pid) - cpu);
      }
      const expected = (r + 2) * opts.size;
      const started = performance.now();
      const all = await receiver.reached(expected, opts.deliveryTimeoutMs ?? 300_000);
      if (r >= 0) deliveryMs.push(performance.now() - started);
      peak = Math.max(peak, mem.stop().peakMb);
      if (!all) notes.push(`bulk create with a webhook, round ${r + 1}: ${receiver.count()} of ${expected} deliveries arrived in time`);
      await client.ok('DELETE', kind.path, (res.body as { id: string }[]).map((o) => ({ id: o.id })));
    }
  } finally {
    await client.ok('DELETE', `/api/extras/webhooks/${hook.id}/`).catch(() => undefined);
    await receiver.close();
  }
  const ms = median(times);
  notes.push(`bulk create ${opts.size} locations with a matching webhook: all deliveries of a round arrived a median ${Math.round(median(deliveryMs))} ms after its response (${deliveryMs.map(Math.round).join(', ')})`);
  return { rows: [{ name: `bulk create ${opts.size} locations + webhook`, objects: opts.size, medianMs: ms, objectsPerSecond: opts.size / (ms / 1000), roundsMs: times, serverMs, peakRssMb: peak }], notes };
}
