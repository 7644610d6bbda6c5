import { GraphQLBoolean, GraphQLInt, GraphQLList, GraphQLString } from 'graphql';
import { loadComputed, loadRelationshipPeers } from '../resolve/dynamic.js';
import { DateTypeScalar, GenericScalar, JsonScalar } from './scalars.js';
import { isGraphqlName } from './names.js';
import { reads } from './selected-columns.js';
import type { GraphQLFieldConfigMap, GraphQLOutputType } from 'graphql';
import type { ResolvedModel, Row } from '../../core/registry/types.js';
import type { GqlContext } from '../resolve/context.js';
import type { RelationshipDef } from './dynamic-defs.js';
import type { SchemaParts } from './schema-parts.js';

type Fields = GraphQLFieldConfigMap<Row, GqlContext>;

/** The type of a `cf_<key>` field by custom field type (the reference's CUSTOM_FIELD_MAPPING; others are strings). */
const CUSTOM_FIELD_TYPES: Readonly<Record<string, GraphQLOutputType>> = {
  integer: GraphQLInt, text: GraphQLString, boolean: GraphQLBoolean, date: DateTypeScalar, url: GraphQLString,
  select: GraphQLString, json: JsonScalar, 'multi-select': new GraphQLList(GraphQLString),
};

/** `cf_<key>`: the stored value of each custom field of the model (null when unset). */
function customFields(parts: SchemaParts, model: ResolvedModel): Fields {
  const out: Fields = {};
  if (!model.fieldMap.has('custom_fields')) return out;
  for (const def of parts.defs.customFields) {
    const name = `cf_${def.key}`;
    if (!def.models.includes(model.id) || !isGraphqlName(name)) continue;
    out[name] = { type: CUSTOM_FIELD_TYPES[def.type] ?? GraphQLString, ...reads(['_custom_field_data']), resolve: (row) => (row._custom_field_data as Record<string, unknown> | null)?.[def.key] ?? null };
  }
  return out;
}

const OPPOSITE = { source: 'destination', destination: 'source' } as const;

/** Whether the objects on `side` of a relationship may be many (the reference's `Relationship.has_many`). */
function hasMany(rel: RelationshipDef, side: 'source' | 'destination'): boolean {
  if (rel.type === 'many-to-many' || rel.type === 'symmetric-many-to-many') return true;
  if (rel.type === 'one-to-many') return side === 'destination';
  return false;
}

/**
 * `rel_<key>`: the objects at the other end of each relationship of the model (a list when that
 * side may be many); `rel_<key>_source` / `_destination` for a non-symmetric relationship
 * between objects of one model.
 */
function relationships(parts: SchemaParts, model: ResolvedModel): Fields {
  const out: Fields = {};
  if (!model.fieldMap.has('relationships')) return out;
  for (const rel of parts.defs.relationships) {
    for (const side of ['source', 'destination'] as const) {
      if (rel[`${side}_type`] !== model.id) continue;
      const peerSide = OPPOSITE[side];
      const peer = parts.inSchema(rel[`${peerSide}_type`]);
      const sameModel = rel.source_type === rel.destination_type;
      const name = !rel.type.startsWith('symmetric') && sameModel ? `rel_${rel.key}_${peerSide}` : `rel_${rel.key}`;
      if (!peer || name in out || !isGraphqlName(name)) continue;
      out[name] = hasMany(rel, peerSide)
        ? { type: new GraphQLList(parts.typeOf(peer)), ...reads([]), resolve: (row, _args, ctx) => loadRelationshipPeers(ctx, rel, side, peer, row) }
        : { type: parts.typeOf(peer), ...reads([]), resolve: async (row, _args, ctx) => (await loadRelationshipPeers(ctx, rel, side, peer, row))[0] ?? null };
    }
  }
  return out;
}

/** `cpf_<key>`: each computed field of the model rendered for the object (its fallback when rendering fails). */
function computedFields(parts: SchemaParts, model: ResolvedModel): Fields {
  const out: Fields = {};
  for (const def of parts.defs.computedFields) {
    const name = `cpf_${def.key}`;
    if (def.model !== model.id || !isGraphqlName(name)) continue;
    out[name] = { type: GraphQLString, ...reads(null), resolve: async (row, _args, ctx) => ((await loadComputed(ctx, model, 'computed_fields', row)) as Record<string, unknown> | undefined)?.[def.key] ?? null };
  }
  return out;
}

/** The fields that follow the data: custom fields, config context, relationships, computed fields. */
export function dynamicFields(parts: SchemaParts, model: ResolvedModel): Fields {
  const configContext: Fields = model.fieldMap.has('local_config_context_data')
    ? { config_context: { type: GenericScalar, ...reads(null), resolve: async (row, _args, ctx) => (await loadComputed(ctx, model, 'config_context', row)) ?? {} } }
    : {};
  return { ...customFields(parts, model), ...configContext, ...relationships(parts, model), ...computedFields(parts, model) };
}
