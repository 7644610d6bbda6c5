/** What the in-process render tools (render-ab, render-cpu, render-stages) render as: the bench superuser. */
export const BENCH_ACTOR = { id: 'bench', username: 'bench', is_superuser: true, is_active: true, permissions: [], write_enabled: true };

/** A request context for rendering outside a request, links under `baseUrl`. */
export function benchRequestContext(baseUrl: string) {
  return { actor: BENCH_ACTOR, requestId: 'x', baseUrl, routeName: '' };
}

/** Mean CPU ms (user + system) of `n` synchronous runs of `fn`, after `warmup` unmeasured ones. */
export function cpuMsPerRun(n: number, fn: () => unknown, warmup = 0): number {
  for (let i = 0; i < warmup; i += 1) fn();
  const before = process.cpuUsage();
  for (let i = 0; i < n; i += 1) fn();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / n;
}
