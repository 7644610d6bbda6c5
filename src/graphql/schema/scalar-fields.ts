import { GraphQLBoolean, GraphQLEnumType, GraphQLFloat, GraphQLID, GraphQLInt, GraphQLNonNull, GraphQLString } from 'graphql';
import { BigInteger, DateScalar, DateTimeScalar, DecimalScalar, GenericScalar, UuidScalar } from './scalars.js';
import { choiceEnumName, choiceValueNames } from './names.js';
import { reads } from './selected-columns.js';
import type { GraphQLFieldConfig, GraphQLOutputType, GraphQLScalarType } from 'graphql';
import type { FieldKind, ResolvedField, ResolvedModel, Row } from '../../core/registry/types.js';
import type { GqlContext } from '../resolve/context.js';

/** The scalar each stored kind shows as (graphene-django's conversion of the reference's model fields). */
const SCALARS: Partial<Record<FieldKind, GraphQLScalarType>> = {
  string: GraphQLString, text: GraphQLString, color: GraphQLString, email: GraphQLString, url: GraphQLString, slug: GraphQLString,
  time_zone: GraphQLString, ip_address: GraphQLString, mac_address: GraphQLString,
  integer: GraphQLInt, positive_integer: GraphQLInt, big_integer: BigInteger, decimal: DecimalScalar, float: GraphQLFloat,
  boolean: GraphQLBoolean, date: DateScalar, datetime: DateTimeScalar, json: GenericScalar, json_document: GenericScalar,
  uuid: UuidScalar, auto_id: GraphQLID,
};

/** Fields the reference's types show as nullable whatever the column (MAC addresses: an empty one is null, as in REST). */
const ALWAYS_NULLABLE: ReadonlySet<FieldKind> = new Set(['mac_address']);

/** Enum types by name, shared by every field of one schema that uses the same choice set name. */
export type EnumCache = Map<string, GraphQLEnumType>;

function choiceEnum(enums: EnumCache, model: ResolvedModel, field: ResolvedField): { type: GraphQLEnumType; byValue: Map<string, string> } {
  const values = (field.choices ?? []).map(([v]) => v);
  const names = choiceValueNames(values);
  const byValue = new Map(values.map((v, i) => [String(v), names[i]]));
  const name = choiceEnumName(model, field);
  let type = enums.get(name);
  if (!type) {
    const config = Object.fromEntries(names.map((n, i) => [n, { value: n, description: field.choices?.[i]?.[1] }]));
    type = new GraphQLEnumType({ name, values: config });
    enums.set(name, type);
  }
  return { type, byValue };
}

function maybeRequired(type: GraphQLOutputType, required: boolean): GraphQLOutputType {
  return required ? new GraphQLNonNull(type) : type;
}

/**
 * A choice field as an enum of its values' names (`mode: ACCESS`), as graphene-django converts
 * choice fields; blank and unknown values read as null (the reference's null-choice resolvers).
 */
function choiceField(enums: EnumCache, model: ResolvedModel, field: ResolvedField): GraphQLFieldConfig<Row, GqlContext> {
  const { type, byValue } = choiceEnum(enums, model, field);
  const column = field.column as string;
  return {
    type: maybeRequired(type, !field.blank && !field.nullable),
    ...reads([column]),
    resolve: (row) => (row[column] === null || row[column] === undefined || row[column] === '' ? null : byValue.get(String(row[column])) ?? null),
  };
}

/**
 * The GraphQL field of a stored scalar of the model (`name: String!`, `mtu: Int`, `face:
 * DcimDeviceFaceChoices`), or undefined for a kind the reference shows otherwise or not at all.
 */
export function scalarField(enums: EnumCache, model: ResolvedModel, field: ResolvedField): GraphQLFieldConfig<Row, GqlContext> | undefined {
  if (!field.column) return undefined;
  if (field.kind === 'choice') return choiceField(enums, model, field);
  const scalar = SCALARS[field.kind];
  if (!scalar) return undefined;
  const column = field.column;
  const render = field.behaviour.render;
  const required = !field.nullable && !ALWAYS_NULLABLE.has(field.kind);
  return {
    type: maybeRequired(scalar, required),
    ...reads([column]),
    resolve: (row) => {
      const value = row[column];
      return value === null || value === undefined ? null : render(value, field);
    },
  };
}
