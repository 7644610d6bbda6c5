import { sql } from 'kysely';
import { toUuid } from '../../../core/fields/scalar.js';
import { col, or } from '../../../db/query/sql-helpers.js';
import { FilterError, invalidChoice } from '../../../ops/filters/resolve-values.js';
import { joinTable } from '../../../db/schema/build-schema.js';
import { loadCustomFields, toDef } from './definitions.js';
import { MATCHERS, baseLookup, matchClause } from './filter-clauses.js';
import type { Clause } from '../../../db/query/sql-helpers.js';
import type { FilterContext, FilterDef } from '../../../ops/filters/filter-set.js';
import type { CustomFieldDef } from './definitions.js';
import type { Exec } from '../../../db/store.js';
import type { Services } from '../../../ops/services.js';

const CHAR = ['n', 'ic', 'nic', 'isw', 'nisw', 'iew', 'niew', 'ie', 'nie', 're', 'nre', 'ire', 'nire'];
const NUMERIC = ['n', 'lt', 'lte', 'gt', 'gte'];

/** Lookup suffixes by custom field type (api-behaviour.md section 7; boolean, json, markdown have none). */
const LOOKUPS_BY_TYPE: Record<string, string[]> = { text: CHAR, url: CHAR, select: CHAR, integer: NUMERIC, date: NUMERIC, 'multi-select': ['n'] };

/** Types whose plain `cf_<key>` takes one value (the last given), as the reference's single-value filters. */
const SINGLE_VALUE = new Set(['text', 'url', 'markdown', 'json', 'integer', 'date', 'boolean']);

const TRUTHY = new Set(['true', 'True', '1', 'yes', 'on']);
const FALSY = new Set(['false', 'False', '0', 'no', 'off']);

function parseValue(def: CustomFieldDef, raw: string): unknown {
  switch (def.type) {
    case 'integer': if (/^\s*-?\d+\s*$/.test(raw)) return Number(raw); throw new FilterError('Enter a whole number.');
    case 'date': if (/^\d{4}-\d{2}-\d{2}$/.test(raw)) return raw; throw new FilterError('Enter a valid date.');
    case 'boolean': if (TRUTHY.has(raw)) return 'true'; if (FALSY.has(raw)) return 'false'; throw invalidChoice(raw);
    case 'select': case 'multi-select': return toUuid(raw) ? def.choiceIds.get(toUuid(raw) as string) ?? '' : raw;
    default: return raw;
  }
}

/** The SQL value a lookup compares: numbers for integers, JSON text for booleans and JSON, else text. */
function valueExpr(ctx: FilterContext, def: CustomFieldDef) {
  const column = col(ctx.model.table, '_custom_field_data');
  const as = def.type === 'integer' ? 'number' : def.type === 'boolean' || def.type === 'json' ? 'json' : 'text';
  return ctx.services.dialect.json.get(column, def.key, as);
}

/** `cf_<key>=null`: the key is present and holds null. */
function nullClause(ctx: FilterContext, def: CustomFieldDef): Clause {
  const value = ctx.services.dialect.json.get(col(ctx.model.table, '_custom_field_data'), def.key, 'json');
  return () => sql`${value} = 'null'` as never;
}

/** The predicate of a plain `cf_<key>` for one field type, before the not-null guard. */
function plainMatch(ctx: FilterContext, def: CustomFieldDef, values: unknown[]): Clause {
  const { dialect } = ctx.services;
  const expr = valueExpr(ctx, def);
  if (def.type === 'multi-select') {
    const column = col(ctx.model.table, '_custom_field_data');
    return or(values.map((v) => () => dialect.json.arrayHas(column, def.key, String(v)) as never));
  }
  if (def.type === 'json' && def.filter_logic === 'exact') {
    return or(values.map((v) => () => sql`${expr} = ${dialect.json.literal(toJsonText(String(v)))}` as never));
  }
  const loose = def.filter_logic === 'loose' && ['text', 'url', 'markdown', 'json'].includes(def.type);
  return MATCHERS[loose ? 'ic' : 'exact']({ dialect, expr, values });
}

function toJsonText(raw: string): string {
  try {
    JSON.parse(raw);
    return raw;
  } catch {
    return JSON.stringify(raw);
  }
}

/** The filter family `cf_<key>` / `cf_<key>__<lookup>` of one custom field. */
function customFieldFilter(def: CustomFieldDef): FilterDef {
  return {
    lookups: new Set(LOOKUPS_BY_TYPE[def.type] ?? []),
    async build(ctx, lookup, given) {
      const raw = lookup === 'exact' && SINGLE_VALUE.has(def.type) ? given.slice(-1) : given;
      const { base, negated } = baseLookup(lookup);
      if (raw.length === 1 && raw[0] === 'null') return negated ? (eb) => eb.not(nullClause(ctx, def)(eb)) : nullClause(ctx, def);
      const values = raw.map((v) => parseValue(def, v));
      const expr = valueExpr(ctx, def);
      const match = lookup === 'exact' ? plainMatch(ctx, def, values)
        : def.type === 'multi-select' ? plainMatch(ctx, def, values)
          : MATCHERS[base]({ dialect: ctx.services.dialect, expr, values });
      const guard = def.type === 'multi-select' ? ctx.services.dialect.json.get(col(ctx.model.table, '_custom_field_data'), def.key, 'json') : expr;
      return matchClause(match, guard, negated);
    },
  };
}

/**
 * `cf_<key>` filters of the model's custom fields (filter_logic `disabled` offers none), with
 * the lookup suffixes api-behaviour.md section 7 lists per type. One query per parameter.
 */
export async function customFieldDynamicFilter(ctx: FilterContext, param: string): Promise<{ def: FilterDef; lookup: string } | undefined> {
  if (!param.startsWith('cf_') || !ctx.model.fieldMap.has('custom_fields')) return undefined;
  const rest = param.slice(3);
  const cut = rest.lastIndexOf('__');
  const defs = await loadCustomFields(ctx.services, ctx.exec, ctx.model.id);
  const byKey = new Map(defs.filter((d) => d.filter_logic !== 'disabled').map((d) => [d.key, d]));
  const whole = byKey.get(rest);
  if (whole) return { def: customFieldFilter(whole), lookup: 'exact' };
  const prefix = cut > 0 ? byKey.get(rest.slice(0, cut)) : undefined;
  const lookup = rest.slice(cut + 2);
  if (!prefix || !(LOOKUPS_BY_TYPE[prefix.type] ?? []).includes(lookup)) return undefined;
  return { def: customFieldFilter(prefix), lookup };
}

/** Value schema of a `cf_<key>` parameter in the OpenAPI document. */
const VALUE_SCHEMAS: Record<string, Record<string, unknown>> = { integer: { type: 'integer' }, boolean: { type: 'boolean' }, date: { type: 'string', format: 'date' } };

/** The `cf_<key>` family of every model's custom fields as they are now (listDynamicFilters; one query). */
export async function listCustomFieldFilters({ services, exec }: { services: Services; exec: Exec }): Promise<Map<string, Record<string, FilterDef>>> {
  const cf = services.registry.get('extras.customfield');
  const link = joinTable(cf, cf.fieldMap.get('content_types')!);
  const rows = await exec.selectFrom(cf.table).innerJoin(link, `${link}.source_id`, `${cf.table}.id`)
    .selectAll(cf.table).select(`${link}.content_type as content_type`).where(`${cf.table}.filter_logic`, '!=', 'disabled').execute();
  const out = new Map<string, Record<string, FilterDef>>();
  for (const row of rows) {
    const modelId = String(row.content_type);
    if (!services.registry.find(modelId)?.fieldMap.has('custom_fields')) continue;
    const def = toDef(services.store.decode(cf, row));
    out.set(modelId, { ...out.get(modelId), [`cf_${def.key}`]: { ...customFieldFilter(def), schema: VALUE_SCHEMAS[def.type] ?? { type: 'string' } } });
  }
  return out;
}
