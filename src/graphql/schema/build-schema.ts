import { GraphQLID, GraphQLList, GraphQLObjectType, GraphQLSchema } from 'graphql';
import { getRoot, listRoot } from '../resolve/roots.js';
import { SchemaParts } from './schema-parts.js';
import { toVarName } from './names.js';
import { selectedColumns } from './selected-columns.js';
import type { GraphQLFieldConfigMap } from 'graphql';
import type { Services } from '../../ops/services.js';
import type { GqlContext } from '../resolve/context.js';
import type { ListArgs } from '../resolve/relations.js';
import type { DynamicDefs } from './dynamic-defs.js';

/**
 * The query root: per served model a single-object field (`device(id:)`) and a list field
 * (`devices(...)`) named from its verbose names. A model whose names are taken by an earlier one
 * is left out, and a model whose two names are the same (`virtual_chassis`) keeps the list.
 */
function queryFields(parts: SchemaParts): GraphQLFieldConfigMap<unknown, GqlContext> {
  const fields: GraphQLFieldConfigMap<unknown, GqlContext> = {};
  for (const model of parts.models) {
    const single = toVarName(model.verbose_name);
    const list = toVarName(model.verbose_name_plural);
    if (single in fields || list in fields) continue;
    fields[single] = { type: parts.typeOf(model), args: { id: { type: GraphQLID } }, resolve: (_root, args: { id?: unknown }, ctx) => getRoot(ctx, model, args.id) };
    fields[list] = { type: new GraphQLList(parts.typeOf(model)), args: parts.argsOf(model), resolve: (_root, args: ListArgs, ctx, info) => listRoot(ctx, model, args, selectedColumns(info, model)) };
  }
  return fields;
}

/** The whole read schema from the registry and the data-defined fields (custom fields, relationships, computed fields). */
export function buildSchema(services: Services, defs: DynamicDefs): GraphQLSchema {
  const parts = new SchemaParts(services, defs);
  const query = new GraphQLObjectType<unknown, GqlContext>({ name: 'Query', fields: () => queryFields(parts) });
  return new GraphQLSchema({ query });
}
