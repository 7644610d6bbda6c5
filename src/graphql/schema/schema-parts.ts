import { GraphQLUnionType } from 'graphql';
import { listArgs } from './filter-args.js';
import { buildObjectType } from './object-types.js';
import { objectTypeName } from './names.js';
import { GENERIC_UNIONS, STATIC_TYPES, WITHOUT_FILTERS } from './reference-types.js';
import { GraphQLInt } from 'graphql';
import type { GraphQLFieldConfigArgumentMap, GraphQLObjectType } from 'graphql';
import type { ResolvedModel, Row } from '../../core/registry/types.js';
import type { Services } from '../../ops/services.js';
import type { GqlContext } from '../resolve/context.js';
import type { DynamicDefs } from './dynamic-defs.js';
import type { EnumCache } from './scalar-fields.js';

/**
 * The pieces one schema is built from, made on first use and shared: the models it serves
 * (those with the `graphql` feature and the reference's static types), their object types,
 * list arguments, generic unions and choice enums.
 */
export class SchemaParts {
  readonly models: readonly ResolvedModel[];
  readonly enums: EnumCache = new Map();
  private readonly served: Map<string, ResolvedModel>;
  private readonly types = new Map<string, GraphQLObjectType<Row, GqlContext>>();
  private readonly args = new Map<string, GraphQLFieldConfigArgumentMap>();
  private readonly unions = new Map<string, GraphQLUnionType | null>();

  constructor(readonly services: Services, readonly defs: DynamicDefs) {
    this.models = services.registry.models.filter((m) => m.features.has('graphql') || STATIC_TYPES.includes(m.id));
    this.served = new Map(this.models.map((m) => [m.id, m]));
  }

  /** The model when the schema serves it. */
  inSchema(id: string): ResolvedModel | undefined {
    return this.served.get(id);
  }

  typeOf(model: ResolvedModel): GraphQLObjectType<Row, GqlContext> {
    let type = this.types.get(model.id);
    if (!type) {
      type = buildObjectType(this, model);
      this.types.set(model.id, type);
    }
    return type;
  }

  /** `limit`, `offset` and the model's filters (only the first two for a type without a filter set). */
  argsOf(model: ResolvedModel): GraphQLFieldConfigArgumentMap {
    let args = this.args.get(model.id);
    if (!args) {
      args = WITHOUT_FILTERS.has(model.id) ? { limit: { type: GraphQLInt }, offset: { type: GraphQLInt } } : listArgs(this.services, model, this.defs.filters.get(model.id));
      this.args.set(model.id, args);
    }
    return args;
  }

  /** The union of every model with a generic relation `name` (CableTerminationTypes), if any is served. */
  unionOf(name: string): GraphQLUnionType | undefined {
    if (!this.unions.has(name)) {
      const members = this.models.filter((m) => m.fieldMap.get(name)?.kind === 'generic_fk');
      const spec = GENERIC_UNIONS[name];
      const union = spec && members.length > 0
        ? new GraphQLUnionType({ name: spec.union, types: () => members.map((m) => this.typeOf(m)), resolveType: (row: Row, ctx: GqlContext) => { const m = ctx.generic.get(row); return m ? objectTypeName(m) : undefined; } })
        : null;
      this.unions.set(name, union);
    }
    return this.unions.get(name) ?? undefined;
  }
}
