import { ValidationError } from '../../core/errors.js';
import { and } from '../../db/query/sql-helpers.js';
import { extensionsFor } from '../extensions.js';
import { filterSet } from './filter-set.js';
import { FilterError } from './resolve-values.js';
import type { Clause } from '../../db/query/sql-helpers.js';
import type { FilterContext, FilterDef } from './filter-set.js';

/** Query parameters that are never filters (api-behaviour.md section 7). */
export const NON_FILTER_PARAMS: ReadonlySet<string> = new Set(['api_version', 'depth', 'exclude_m2m', 'format', 'include', 'limit', 'offset', 'sort']);

/** Query parameters as name -> values (repeated parameters keep every value). */
export type Params = Map<string, string[]>;

/**
 * App filters (which may replace a generated one of the same name, e.g. an address-aware `q`),
 * then generated filters, then app dynamic filters (e.g. `cf_<key>`).
 */
async function locateFilter(ctx: FilterContext, filters: Map<string, FilterDef>, param: string): Promise<[FilterDef, string] | undefined> {
  const extensions = extensionsFor(ctx.services, ctx.model);
  for (const ext of extensions) {
    const extra = ext.filters ? findFilter(new Map(Object.entries(ext.filters)), param) : undefined;
    if (extra) return extra;
  }
  const found = findFilter(filters, param);
  if (found) return found;
  for (const ext of extensions) {
    const dynamic = await ext.dynamicFilter?.(ctx, param);
    if (dynamic) return [dynamic.def, dynamic.lookup];
  }
  return undefined;
}

function findFilter(filters: Map<string, FilterDef>, param: string): [FilterDef, string] | undefined {
  const direct = filters.get(param);
  if (direct) return [direct, 'exact'];
  const cut = param.lastIndexOf('__');
  if (cut <= 0) return undefined;
  const def = filters.get(param.slice(0, cut));
  const lookup = param.slice(cut + 2);
  return def && def.lookups.has(lookup) ? [def, lookup] : undefined;
}

/** Lookups whose values are regular expressions: checked against the database's engine first. */
const REGEX_LOOKUPS: ReadonlySet<string> = new Set(['re', 'nre', 'ire', 'nire']);

/** The first reason one of the patterns cannot run (a 400 naming the filter), or null. */
async function patternProblem(ctx: FilterContext, patterns: string[]): Promise<string | null> {
  for (const pattern of patterns) {
    const problem = await ctx.services.dialect.regexError(ctx.exec, pattern);
    if (problem) return problem;
  }
  return null;
}

/**
 * Turns the filter parameters of a request into one predicate; different parameters AND.
 * Unknown parameters are a 400 under STRICT_FILTERING, ignored otherwise.
 */
export async function buildWhere(ctx: FilterContext, params: Params): Promise<Clause> {
  const filters = filterSet(ctx.model);
  const errors: Record<string, string[]> = {};
  const clauses: Clause[] = [];
  for (const [param, values] of params) {
    if (NON_FILTER_PARAMS.has(param)) continue;
    const found = await locateFilter(ctx, filters, param);
    if (!found) {
      if (ctx.services.config.strictFiltering) errors[param] = ['Unknown filter field'];
      continue;
    }
    const problem = values.some((v) => v.includes('\0')) ? 'Null characters are not allowed.' : REGEX_LOOKUPS.has(found[1]) ? await patternProblem(ctx, values) : null;
    if (problem) {
      errors[param] = [problem];
      continue;
    }
    try {
      clauses.push(await found[0].build(ctx, found[1], values));
    } catch (err) {
      if (!(err instanceof FilterError)) throw err;
      errors[param] = [err.message];
    }
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return and(clauses);
}
