import autocannon from './load-client.js';
import type { Options, Result } from 'autocannon';

export type LoadSettings = { connections: number; duration: number; warmup: number };

export type LoadFigures = { rps: number; p50: number; p99: number; mean: number; requests: number; errors: number; non2xx: number; timeouts: number };

/** One autocannon run over `paths` (taken in turn), after an unrecorded warm-up of the same kind. */
export async function drive(opts: { base: string; paths: string[]; headers: Record<string, string>; settings: LoadSettings; post?: string }): Promise<LoadFigures> {
  let next = 0;
  const spec = (duration: number): Options => ({
    url: opts.base + opts.paths[0],
    connections: opts.settings.connections,
    duration,
    headers: opts.post === undefined ? opts.headers : { ...opts.headers, 'content-type': 'application/json' },
    ...(opts.post === undefined ? {} : { method: 'POST' as const, body: opts.post }),
    timeout: 30,
    requests: opts.paths.length > 1
      ? [{ setupRequest: (req) => ({ ...req, path: opts.paths[next++ % opts.paths.length] }) }]
      : undefined,
  });
  if (opts.settings.warmup > 0) await autocannon(spec(opts.settings.warmup));
  const r: Result = await autocannon(spec(opts.settings.duration));
  const total = r['2xx'] + r.non2xx;
  return {
    rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, mean: r.latency.average, requests: total,
    errors: r.errors, non2xx: r.non2xx, timeouts: r.timeouts,
  };
}
