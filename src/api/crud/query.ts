import { BadRequestError } from '../../core/errors.js';
import type { Config } from '../../core/config.js';
import type { SerializeOptions } from '../../ops/serialize/index.js';

export type Params = Map<string, string[]>;

const last = (params: Params, name: string) => params.get(name)?.at(-1);

function toInt(value: string | undefined): number | undefined {
  return value !== undefined && /^\d+$/.test(value.trim()) ? Number(value) : undefined;
}

/**
 * `limit`/`offset` as the reference's paginator reads them (api-behaviour.md section 5). Numbers
 * past what a database takes are clamped to the largest safe integer: an offset that large is
 * past the end of any table (an empty page, as the reference, whose links `pageLinks` computes
 * from the exact value), and a limit that large returns every row.
 */
export function parsePaging(params: Params, config: Config): { limit: number | null; offset: number } {
  const offset = Math.min(toInt(last(params, 'offset')) ?? 0, Number.MAX_SAFE_INTEGER);
  const raw = last(params, 'limit');
  let limit = Math.min(toInt(raw) ?? config.paginateCount, Number.MAX_SAFE_INTEGER);
  if (raw !== undefined && /^-/.test(raw.trim())) limit = config.paginateCount;
  if (limit === 0) return { limit: config.maxPageSize === 0 ? null : config.maxPageSize, offset };
  if (config.maxPageSize > 0 && limit > config.maxPageSize) limit = config.maxPageSize;
  return { limit, offset };
}

/** `depth` 0-10 (non-integers read as 0, as the reference; out of range is a 400). */
export function parseDepth(params: Params): number {
  const raw = last(params, 'depth');
  if (raw === undefined || !/^-?\d+$/.test(raw.trim())) return 0;
  const depth = Number(raw);
  if (depth > 10) throw new BadRequestError("'depth' may not be greater than 10.");
  if (depth < 0) throw new BadRequestError("'depth' may not be less than 0.");
  return depth;
}

function parseBool(raw: string | undefined): boolean {
  if (raw === undefined) return false;
  if (['true', 'True', '1', 'yes', 'on'].includes(raw)) return true;
  if (['false', 'False', '0', 'no', 'off', ''].includes(raw)) return false;
  throw new BadRequestError(`'${raw}' is not a valid boolean value for exclude_m2m.`);
}

/** Whether a request only reads (GET, HEAD). */
export const readsOnly = (method: string): boolean => method === 'GET' || method === 'HEAD';

/**
 * Serializer options from the query: depth (GET only), include, exclude_m2m; `generation`, the
 * request's write generation, is kept for reads only (a write moves it).
 */
export function serializeOptions(params: Params, baseUrl: string, opts: { method: string; generation?: Promise<string | null> }): SerializeOptions {
  const include = new Set((params.get('include') ?? []).flatMap((v) => v.split(',')).map((s) => s.trim()).filter(Boolean));
  const isGet = readsOnly(opts.method);
  return {
    depth: isGet ? parseDepth(params) : 0,
    baseUrl,
    include: isGet ? include : new Set(['relationships', 'computed_fields', 'config_context']),
    excludeM2m: parseBool(last(params, 'exclude_m2m')),
    ...(isGet && opts.generation ? { generation: opts.generation } : {}),
  };
}

/** What `make` returns, or undefined when it throws (options a later step validates again, with its error). */
export function attempt<T>(make: () => T): T | undefined {
  try {
    return make();
  } catch {
    return undefined;
  }
}
