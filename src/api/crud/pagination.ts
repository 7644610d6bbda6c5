/** Absolute page link with every parameter re-encoded and sorted by name (reference paginator). */
function pageUrl(base: string, path: string, params: Map<string, string[]>, changes: { limit: number; offset: bigint | null }): string {
  const merged = new Map(params);
  merged.set('limit', [String(changes.limit)]);
  if (changes.offset === null) merged.delete('offset');
  else merged.set('offset', [String(changes.offset)]);
  const search = new URLSearchParams();
  for (const key of [...merged.keys()].sort()) for (const v of merged.get(key) as string[]) search.append(key, v);
  return `${base}${path}?${search.toString()}`;
}

/** The offset as the client wrote it, exactly: `offset` itself, unless it was clamped from a larger integer. */
function exactOffset(params: Map<string, string[]>, offset: number): bigint {
  const raw = params.get('offset')?.at(-1)?.trim();
  return offset === Number.MAX_SAFE_INTEGER && raw && /^\d+$/.test(raw) ? BigInt(raw) : BigInt(offset);
}

/** The list envelope's `next` and `previous` links (integer arithmetic, exact for any offset, as the reference's). */
export function pageLinks(opts: { base: string; path: string; params: Map<string, string[]>; count: number; limit: number | null; offset: number }) {
  const { limit, count } = opts;
  if (limit === null) return { next: null, previous: null };
  const [offset, size] = [exactOffset(opts.params, opts.offset), BigInt(limit)];
  const next = offset + size < BigInt(count) ? pageUrl(opts.base, opts.path, opts.params, { limit, offset: offset + size }) : null;
  let previous: string | null = null;
  if (offset > 0n) previous = pageUrl(opts.base, opts.path, opts.params, { limit, offset: offset - size > 0n ? offset - size : null });
  return { next, previous };
}
