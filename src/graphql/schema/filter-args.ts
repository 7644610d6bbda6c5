import { GraphQLBoolean, GraphQLFloat, GraphQLInt, GraphQLList, GraphQLString } from 'graphql';
import { NON_FILTER_PARAMS } from '../../ops/filters/apply.js';
import { filterSet } from '../../ops/filters/filter-set.js';
import { extensionsFor } from '../../ops/extensions.js';
import { BigInteger } from './scalars.js';
import { isGraphqlName } from './names.js';
import type { GraphQLFieldConfigArgumentMap, GraphQLInputType } from 'graphql';
import type { ResolvedField, ResolvedModel } from '../../core/registry/types.js';
import type { FilterDef } from '../../ops/filters/filter-set.js';
import type { Services } from '../../ops/services.js';

/** Lookups whose values are text whatever the field (patterns, substrings). */
const TEXT_LOOKUPS = new Set(['ic', 'nic', 'isw', 'nisw', 'iew', 'niew', 'ie', 'nie', 're', 'nre', 'ire', 'nire']);

/**
 * `type` clashes with graphene 2's own `Field.type`, so the reference offers that filter as
 * `_type` (and maps it back); so does this schema.
 */
export const RENAMED_ARGS: Readonly<Record<string, string>> = { type: '_type' };

/** The argument type of one filter parameter, as the reference types it by its filter class. */
function argType(field: ResolvedField | undefined, def: FilterDef, name: string, lookup: string): GraphQLInputType {
  if (name === 'q' || lookup === 'isnull') return name === 'q' ? GraphQLString : GraphQLBoolean;
  if (def.schema?.type === 'boolean' || (field?.behaviour.storage === 'boolean' && !field.behaviour.relation)) return GraphQLBoolean;
  if (def.schema?.type === 'integer') return new GraphQLList(GraphQLInt);
  if (field && !field.behaviour.relation && !TEXT_LOOKUPS.has(lookup) && field.kind !== 'choice') {
    if (field.kind === 'big_integer') return new GraphQLList(BigInteger);
    if (field.behaviour.storage === 'integer' || field.kind === 'count') return new GraphQLList(GraphQLInt);
    if (field.behaviour.storage === 'real') return new GraphQLList(GraphQLFloat);
  }
  return new GraphQLList(GraphQLString);
}

function addFamily(out: GraphQLFieldConfigArgumentMap, model: ResolvedModel, name: string, def: FilterDef): void {
  const field = model.fieldMap.get(name === 'tag' ? 'tags' : name);
  for (const lookup of ['exact', ...def.lookups]) {
    const param = lookup === 'exact' ? name : `${name}__${lookup}`;
    const argName = RENAMED_ARGS[param] ?? param;
    if (NON_FILTER_PARAMS.has(param) || !isGraphqlName(argName)) continue;
    out[argName] = { type: argType(field, def, name, lookup) };
  }
}

/**
 * The arguments of a list of `model` objects: `limit`, `offset`, then every filter of its REST
 * filter set with every lookup (`name`, `name__ic`, `parent__isnull`, `q`, the apps' filters, the
 * data-dependent `cf_<key>` ones), so one filter implementation serves REST and GraphQL.
 */
export function listArgs(services: Services, model: ResolvedModel, dynamic: Record<string, FilterDef> | undefined): GraphQLFieldConfigArgumentMap {
  const out: GraphQLFieldConfigArgumentMap = { limit: { type: GraphQLInt }, offset: { type: GraphQLInt } };
  for (const [name, def] of filterSet(model)) addFamily(out, model, name, def);
  for (const ext of extensionsFor(services, model)) for (const [name, def] of Object.entries(ext.filters ?? {})) addFamily(out, model, name, def);
  for (const [name, def] of Object.entries(dynamic ?? {})) addFamily(out, model, name, def);
  return out;
}

/**
 * Resolver arguments as REST query parameters (`_type` back to `type`, lists as repeated values,
 * booleans as `true`/`false`); `limit`, `offset` and null or empty values are left out.
 */
export function toParams(args: Record<string, unknown>): Map<string, string[]> {
  const params = new Map<string, string[]>();
  for (const [name, value] of Object.entries(args)) {
    if (name === 'limit' || name === 'offset' || value === null || value === undefined) continue;
    const values = (Array.isArray(value) ? value : [value]).filter((v) => v !== null && v !== undefined).map(String);
    if (values.length > 0) params.set(name === '_type' ? 'type' : name, values);
  }
  return params;
}
