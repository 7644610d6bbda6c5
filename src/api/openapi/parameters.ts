import { NON_FILTER_PARAMS } from '../../ops/filters/apply.js';
import { filterSet } from '../../ops/filters/filter-set.js';
import { choiceValues } from './field-schemas.js';
import type { ResolvedField, ResolvedModel } from '../../core/registry/types.js';
import type { ModelExtensions } from '../../ops/extensions.js';
import type { FilterDef } from '../../ops/filters/filter-set.js';
import type { Schema } from './field-schemas.js';

/** An OpenAPI Parameter Object. */
export type Parameter = Record<string, unknown>;

/** Lookups whose value is a pattern or substring, never an enum member. */
const TEXT_LOOKUPS = new Set(['ic', 'nic', 'isw', 'nisw', 'iew', 'niew', 'ie', 'nie', 're', 'nre', 'ire', 'nire']);

/** Query parameters every list takes besides filters (api-behaviour.md sections 5-8, 12, 13). */
export const LIST_PARAMETERS: readonly Parameter[] = [
  { name: 'limit', in: 'query', description: 'Number of results to return per page.', schema: { type: 'integer', minimum: 0 } },
  { name: 'offset', in: 'query', description: 'The initial index from which to return the results.', schema: { type: 'integer', minimum: 0 } },
  { name: 'sort', in: 'query', description: 'Comma-separated field names to order by; `-` for descending.', schema: { type: 'string' } },
  { name: 'depth', in: 'query', description: 'Serializer depth: related objects nested this many levels.', schema: { type: 'integer', minimum: 0, maximum: 10, default: 0 } },
  { name: 'exclude_m2m', in: 'query', description: 'Leave many-to-many fields out of the response.', schema: { type: 'boolean', default: false } },
  { name: 'include', in: 'query', description: 'Opt-in fields, comma-separated.', schema: { type: 'string', example: 'relationships,computed_fields' } },
];

/** `format`: JSON (default), CSV, or the browsable HTML page. */
export const FORMAT_PARAMETER: Parameter = { name: 'format', in: 'query', schema: { type: 'string', enum: ['json', 'csv', 'api'] } };

/** Schema of one filter value for a field and lookup. */
function valueSchema(field: ResolvedField | undefined, lookup: string): Schema {
  if (lookup === 'isnull') return { type: 'boolean' };
  if (!field) return { type: 'string' };
  const relation = field.behaviour.relation;
  if (relation === 'fk' || relation === 'm2m') return { type: 'string', description: 'UUID or name' };
  if (TEXT_LOOKUPS.has(lookup)) return { type: 'string' };
  if (field.kind === 'choice') return choiceValues(field);
  const type = ({ integer: 'integer', bigint: 'integer', real: 'number', boolean: 'boolean' } as Record<string, string>)[field.behaviour.storage] ?? 'string';
  const format = ({ date: 'date', datetime: 'date-time', uuid: 'uuid' } as Record<string, string>)[field.kind];
  return format ? { type, format } : { type };
}

/** One filter parameter: repeated values are ORed (ANDed for tags), so most take a list. */
function filterParameter(model: ResolvedModel, filter: string, lookup: string, declared?: Schema): Parameter {
  const name = lookup === 'exact' ? filter : `${filter}__${lookup}`;
  const field = model.fieldMap.get(filter === 'tag' ? 'tags' : filter);
  const item = declared && lookup !== 'isnull' ? { ...declared } : valueSchema(field, lookup);
  const single = lookup === 'isnull' || filter === 'q' || item.type === 'boolean';
  const schema = single ? item : { type: 'array', items: item };
  return { name, in: 'query', required: false, schema, ...(single ? {} : { style: 'form', explode: true }) };
}

function addFilter(out: Map<string, Parameter>, model: ResolvedModel, [filter, def]: [string, FilterDef]): void {
  for (const lookup of ['exact', ...def.lookups]) {
    const param = filterParameter(model, filter, lookup, def.schema);
    if (!NON_FILTER_PARAMS.has(param.name as string)) out.set(param.name as string, param);
  }
}

/**
 * Every filter of a model with every lookup it accepts (`name`, `name__ic`, `parent__isnull`,
 * `q`, ...): the generated filter set, then the apps' extension filters (which replace a
 * generated one of the same name), as the list endpoint applies them.
 */
export function buildFilterParameters(model: ResolvedModel, extensions: readonly ModelExtensions[] = []): Parameter[] {
  const out = new Map<string, Parameter>();
  for (const entry of filterSet(model)) addFilter(out, model, entry);
  for (const ext of extensions) for (const entry of Object.entries(ext.filters ?? {})) addFilter(out, model, entry);
  return [...out.values()];
}

/** Parameters of a set of filter families (e.g. the data-dependent `cf_<key>` ones). */
export function toFilterParameters(model: ResolvedModel, families: Record<string, FilterDef>): Parameter[] {
  const out = new Map<string, Parameter>();
  for (const entry of Object.entries(families)) addFilter(out, model, entry);
  return [...out.values()];
}
