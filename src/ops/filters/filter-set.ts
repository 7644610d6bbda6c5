import { joinTable } from '../../db/schema/build-schema.js';
import { and, col, not } from '../../db/query/sql-helpers.js';
import { clampToStorage } from './integer-range.js';
import { LOOKUPS } from './lookups.js';
import { FilterError, invalidChoice, resolveIds, withDescendants } from './resolve-values.js';
import { searchFilter } from './search.js';
import type { Clause } from '../../db/query/sql-helpers.js';
import type { Exec } from '../../db/store.js';
import type { ResolvedField, ResolvedModel } from '../../core/registry/types.js';
import type { Actor, Services } from '../services.js';

/** `actor`: the caller, for filters that answer per user (content types' `can_view`); absent outside a request. */
export type FilterContext = { services: Services; exec: Exec; model: ResolvedModel; actor?: Actor | null };

/** One query parameter family: `<name>` and `<name>__<lookup>`. */
export type FilterDef = {
  lookups: ReadonlySet<string>;
  /** OpenAPI schema of one value, for app filters no model field describes (a string when absent). */
  schema?: Record<string, unknown>;
  build(ctx: FilterContext, lookup: string, values: string[]): Promise<Clause>;
};

/**
 * A choice field's exact filter takes only its choices (the reference's ChoiceFilter); its
 * lookups (`__ic`, `__n`, `__re`, ...) are plain text filters there and take any text.
 */
function parseValues(field: ResolvedField, values: string[], lookup: string): unknown[] {
  return values.map((raw) => {
    if (field.nullable && raw === 'null') return null;
    if (field.kind === 'choice' && lookup === 'exact' && !field.choices?.some(([v]) => String(v) === raw)) throw invalidChoice(raw);
    const parsed = field.behaviour.parseFilter(raw, field);
    if (!parsed.ok) throw new FilterError(parsed.error);
    return parsed.value;
  });
}

function scalarFilter(field: ResolvedField): FilterDef {
  const lookups = new Set<string>([...field.behaviour.lookups, ...(field.nullable ? ['isnull'] : [])]);
  return {
    lookups,
    async build({ services, model }, lookup, values) {
      if (lookup === 'isnull') return LOOKUPS.isnull({ dialect: services.dialect, table: model.table, column: field.column as string, values: [['true', '1', 'True'].includes(values[0])] });
      const parsed = parseValues(field, field.kind === 'boolean' ? values.slice(-1) : values, lookup);
      const storage = field.behaviour.storage;
      const encoded = parsed.map((v) => (v === null ? null : services.dialect.encode(storage, clampToStorage(storage, v))));
      return LOOKUPS[lookup]({ dialect: services.dialect, table: model.table, column: field.column as string, values: encoded });
    },
  };
}

function fkFilter(field: ResolvedField): FilterDef {
  return {
    lookups: new Set(['n', ...(field.nullable ? ['isnull'] : [])]),
    async build({ services, exec, model }, lookup, values) {
      const column = field.column as string;
      if (lookup === 'isnull') return LOOKUPS.isnull({ dialect: services.dialect, table: model.table, column, values: [['true', '1', 'True'].includes(values[0])] });
      const target = services.registry.get(field.to as string);
      const named = values.filter((v) => v !== 'null');
      let ids = await resolveIds(exec, target, named);
      if (field.tree_filter && target.tree) ids = await withDescendants(exec, target, ids);
      const withNull: unknown[] = named.length < values.length ? [...ids, null] : ids;
      return LOOKUPS[lookup]({ dialect: services.dialect, table: model.table, column, values: withNull });
    },
  };
}

/** To-many filters AND their values: the object must carry every one (tags, content types). */
function toManyFilter(field: ResolvedField): FilterDef {
  return {
    lookups: new Set(['n']),
    async build({ services, exec, model }, lookup, values) {
      const table = joinTable(model, field);
      let targets: string[];
      if (field.behaviour.relation === 'content_types') targets = values;
      else {
        const target = services.registry.get(field.to as string);
        targets = await Promise.all(values.map(async (v) => (await resolveIds(exec, target, [v]))[0]));
      }
      const valueCol = field.behaviour.relation === 'content_types' ? 'content_type' : 'target_id';
      const member = (t: string): Clause => (eb) => eb(col(model.table, 'id'), 'in', eb.selectFrom(table).select('source_id').where(valueCol, '=', t));
      return lookup === 'n' ? and(targets.map((t) => not(member(t)))) : and(targets.map(member));
    },
  };
}

function fieldFilter(field: ResolvedField): FilterDef | undefined {
  if (field.no_filter || field.behaviour.derived || field.write_only) return undefined;
  const relation = field.behaviour.relation;
  if (relation === 'fk') return fkFilter(field);
  if (relation === 'm2m' || relation === 'content_types') return toManyFilter(field);
  if (relation === 'generic' || !field.column) return undefined;
  return scalarFilter(field);
}

const cache = new WeakMap<ResolvedModel, Map<string, FilterDef>>();

/** The generated filter set of a model (built once per model). */
export function filterSet(model: ResolvedModel): Map<string, FilterDef> {
  const cached = cache.get(model);
  if (cached) return cached;
  const set = new Map<string, FilterDef>();
  for (const field of model.fields) {
    const def = fieldFilter(field);
    if (def) set.set(field.name, def);
  }
  if (set.has('tags')) set.set('tag', set.get('tags') as FilterDef);
  const q = searchFilter(model);
  if (q) set.set('q', q);
  cache.set(model, set);
  return set;
}
