import type { Clause } from '../db/query/sql-helpers.js';
import type { Exec } from '../db/store.js';
import type { ResolvedModel, Row } from '../core/registry/types.js';
import type { FilterContext, FilterDef } from './filters/filter-set.js';
import type { SerializeOptions } from './serialize/plan.js';
import type { ItemPlan } from './write/build-item.js';
import type { RequestContext, Services } from './services.js';

/** Values computed at read time for a set of rows (one or a few queries for the whole set). */
export type ComputedLoader = (ctx: { services: Services; exec: Exec; model: ResolvedModel; rows: Row[]; opts: SerializeOptions }) => Promise<Map<string, unknown>>;

/** `partial`: a PATCH (absent fields keep their values) rather than a POST or PUT. */
export type WriteHookContext = { services: Services; exec: Exec; rc: RequestContext; model: ResolvedModel; plans: ItemPlan[]; partial?: boolean };
export type ScopeContext = { services: Services; rc: RequestContext; model: ResolvedModel };
export type DeleteHookContext = { services: Services; exec: Exec; rc: RequestContext; model: ResolvedModel; rows: Row[] };

/**
 * Behaviour an application adds to a model beyond its declaration: extra or dynamic filters,
 * read-time values, and hooks inside the write transaction. Keyed by model id, or `*` for all.
 */
export type ModelExtensions = {
  /**
   * Rows outside this predicate do not exist for the caller: lists, details, updates and
   * deletes are limited to it, on top of object permissions (e.g. tokens to their owner).
   * Null for no limit.
   */
  scope?: (ctx: ScopeContext) => Clause | null;
  /** Extra query filters by parameter name (lookups as in FilterDef). */
  filters?: Record<string, FilterDef>;
  /** Filters whose names depend on data (e.g. `cf_<key>`); returns undefined when `param` is not one. */
  dynamicFilter?: (ctx: FilterContext, param: string) => Promise<{ def: FilterDef; lookup: string } | undefined>;
  /**
   * The `dynamicFilter` families that exist now, by model id then name (`cf_site_code`), for the
   * OpenAPI document; called once per document for all models (a `*` entry too).
   */
  listDynamicFilters?: (ctx: { services: Services; exec: Exec }) => Promise<Map<string, Record<string, FilterDef>>>;
  /** Field name -> loader; used for `computed` fields and to override common ones (custom_fields, relationships, ...). */
  computed?: Record<string, ComputedLoader>;
  /**
   * Named locks (dialect.lockScope) every write of this model takes first in its transaction,
   * before it reads the rows it changes: writers whose effects reach beyond their own rows (the
   * IPAM hierarchy re-parents other prefixes and addresses) then run one after the other.
   */
  writeLocks?: readonly string[];
  /** Reads extra input keys of each object before checks (e.g. custom_fields, relationships); may add errors. */
  parseInput?: (ctx: WriteHookContext) => Promise<void>;
  /** After rows and links are written, before the scope check and the change log. */
  afterWrite?: (ctx: WriteHookContext) => Promise<void>;
  /** Before rows are deleted (after the protection check). */
  beforeDelete?: (ctx: DeleteHookContext) => Promise<void>;
  /** After rows are deleted. */
  afterDelete?: (ctx: DeleteHookContext) => Promise<void>;
};

export type AppExtensions = Record<string, ModelExtensions>;

/** Merges app extension tables into one list per model id (`*` entries apply to every model). */
export function buildExtensions(tables: AppExtensions[]): Map<string, ModelExtensions[]> {
  const out = new Map<string, ModelExtensions[]>();
  for (const table of tables) {
    for (const [modelId, ext] of Object.entries(table)) out.set(modelId, [...(out.get(modelId) ?? []), ext]);
  }
  return out;
}

/** Extensions that apply to `model`: the model's own, then the global ones. */
export function extensionsFor(services: Services, model: ResolvedModel): ModelExtensions[] {
  return [...(services.extensions.get(model.id) ?? []), ...(services.extensions.get('*') ?? [])];
}

