import { watchMemory } from './memory.js';
import { BENCH_TOKEN } from './env.js';

/** One export; `complete` false when it was cut off (timeout) or failed (`error`: the connection closed mid-stream, a non-200). */
export type CsvRow = { path: string; rows: number; bytes: number; seconds: number; rowsPerSecond: number; rssBeforeMb: number; rssPeakMb: number; growthMb: number; complete: boolean; error?: string };

/** Whether `?format=csv` answers CSV on this list (the renderer may not exist yet). */
export async function csvSupported(base: string, path: string): Promise<{ ok: boolean; note: string }> {
  const res = await fetch(`${base}${path}?format=csv&limit=1`, { headers: { authorization: `Token ${BENCH_TOKEN}` } });
  const type = String(res.headers.get('content-type'));
  await res.arrayBuffer();
  if (res.status === 200 && type.startsWith('text/csv')) return { ok: true, note: '' };
  return { ok: false, note: `CSV export skipped: GET ${path}?format=csv answers ${res.status} ${type}, not text/csv (not implemented yet)` };
}

/**
 * The whole list as CSV (`limit=0`; the bench server runs with MAX_PAGE_SIZE=0), read as a
 * stream and counted, never held; the server's RSS is watched meanwhile. An export still
 * running after `timeoutSeconds` is cut off and reported as incomplete, so one slow list
 * cannot stretch the run past its budget. A failed export (a non-200, the connection closed
 * mid-stream) is reported with its error instead of ending the run.
 */
export async function exportCsv(base: string, path: string, opts: { pid: number; timeoutSeconds: number }): Promise<CsvRow> {
  const mem = watchMemory(opts.pid, 20);
  const started = performance.now();
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), opts.timeoutSeconds * 1000);
  let bytes = 0;
  let lines = 0;
  let complete = true;
  let error: string | undefined;
  try {
    const res = await fetch(`${base}${path}${path.includes('?') ? '&' : '?'}format=csv&limit=0`, { headers: { authorization: `Token ${BENCH_TOKEN}` }, signal: abort.signal });
    if (res.status !== 200 || !res.body) throw new Error(`CSV export of ${path} -> ${res.status}`);
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      for (let i = 0; i < chunk.length; i += 1) if (chunk[i] === 10) lines += 1;
    }
  } catch (err) {
    complete = false;
    if (!abort.signal.aborted) error = describe(err);
  } finally {
    clearTimeout(timer);
  }
  const seconds = (performance.now() - started) / 1000;
  const { startMb, peakMb } = mem.stop();
  const rows = Math.max(0, lines - 1);
  return { path, rows, bytes, seconds, rowsPerSecond: rows / seconds, rssBeforeMb: startMb, rssPeakMb: peakMb, growthMb: peakMb - startMb, complete, ...(error ? { error } : {}) };
}

/** An error and its cause (undici's "terminated" carries the socket's reason in `cause`). */
function describe(err: unknown): string {
  const e = err as Error & { cause?: { message?: string; code?: string } };
  const cause = e.cause ? ` (${[e.cause.code, e.cause.message].filter(Boolean).join(': ')})` : '';
  return `${e.message}${cause}`;
}
