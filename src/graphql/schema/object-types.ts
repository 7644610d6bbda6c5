import { GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLString } from 'graphql';
import { loadComputed, loadContentType, loadGeneric, loadGenericAs } from '../resolve/dynamic.js';
import { loadObject, loadObjects, loadOneToOne, loadToMany, loadToManyOf, manyToMany, reverseFk } from '../resolve/relations.js';
import { loadContentTypes } from '../resolve/content-types.js';
import { dynamicFields } from './dynamic-fields.js';
import { GenericScalar } from './scalars.js';
import { isGraphqlName, objectTypeName, toVarName } from './names.js';
import { COMPUTED_TEXT, CONTENT_TYPE_AS_TEXT, EXCLUDED, FIRST_OF, GENERIC_UNIONS } from './reference-types.js';
import { scalarField } from './scalar-fields.js';
import { reads, selectedColumns } from './selected-columns.js';
import type { GraphQLFieldConfig, GraphQLFieldConfigMap, GraphQLOutputType } from 'graphql';
import type { ResolvedField, ResolvedModel, Row } from '../../core/registry/types.js';
import type { GqlContext } from '../resolve/context.js';
import type { ListArgs } from '../resolve/relations.js';
import type { SchemaParts } from './schema-parts.js';
import type { LevelResolver } from '../execute-by-level.js';
import type { ToMany } from '../resolve/relations.js';

type Fields = GraphQLFieldConfigMap<Row, GqlContext>;
type Field = GraphQLFieldConfig<Row, GqlContext>;

/** `reads(columns)` with the field's resolver for a whole level (execute-by-level.ts). */
function readsByLevel(columns: readonly string[], resolveLevel: LevelResolver<Row, GqlContext>): Pick<Field, 'extensions'> {
  return { extensions: { ...reads(columns).extensions, resolveLevel } };
}

/** An object behind FK values (the first set of `columns`), one by one or a level at once. */
function objectField(target: ResolvedModel, columns: string[]): Pick<Field, 'resolve' | 'extensions'> {
  const idOf = (row: Row) => (columns.length === 1 ? row[columns[0]] : columns.map((c) => row[c]).find((v) => v !== null && v !== undefined));
  return {
    ...readsByLevel(columns, (rows, _args, ctx, info) => loadObjects(ctx, target, rows.map(idOf), selectedColumns(info, target))),
    resolve: (row, _args, ctx, info) => loadObject(ctx, target, idOf(row), selectedColumns(info, target)),
  };
}

/** The children of a to-many relation, one parent at a time or a level at once. */
function toManyField(relation: ToMany): Pick<Field, 'resolve' | 'extensions'> {
  return {
    ...readsByLevel([], (rows, args, ctx, info) => loadToManyOf(ctx, relation, rows, args as ListArgs, selectedColumns(info, relation.child))),
    resolve: (row, args, ctx, info) => loadToMany(ctx, relation, row, args as ListArgs, selectedColumns(info, relation.child)),
  };
}

/** Fields of the REST representation that are no model fields in the reference (its types lack them). */
const REST_ONLY = new Set(['object_type', 'display', 'url', 'natural_slug', 'notes_url', 'computed_fields', 'relationships', 'custom_fields']);

/** Whether a registry field has a place in the model's type. */
function isShown(model: ResolvedModel, field: ResolvedField): boolean {
  if (REST_ONLY.has(field.name) && field.common) return false;
  if (EXCLUDED[model.id]?.includes(field.name) || field.write_only || field.opt_in) return false;
  if (field.hidden && !field.naturalize) return false;
  return !['count', 'tree_depth', 'computed', 'generic_fk'].includes(field.kind);
}

/** `[Type]`, with the model's list arguments unless the relation takes none (tags). */
function listOf(parts: SchemaParts, model: ResolvedModel, withArgs = true): Pick<Field, 'type' | 'args'> {
  return { type: new GraphQLList(parts.typeOf(model)), ...(withArgs ? { args: parts.argsOf(model) } : {}) };
}

/** The field of one registry field: a scalar, an object (FK, content type) or a list (many-to-many). */
function modelField(parts: SchemaParts, model: ResolvedModel, field: ResolvedField): Field | undefined {
  const relation = field.behaviour.relation;
  if (relation === 'fk') {
    const target = parts.inSchema(field.to as string);
    if (!target) return undefined;
    const column = field.column as string;
    const type: GraphQLOutputType = field.nullable ? parts.typeOf(target) : new GraphQLNonNull(parts.typeOf(target));
    return { type, ...objectField(target, [column]) };
  }
  if (relation === 'm2m') {
    const target = parts.inSchema(field.to as string);
    if (!target) return undefined;
    return { ...listOf(parts, target, field.name !== 'tags'), ...toManyField(manyToMany(model, field, target, true)) };
  }
  const contentTypes = parts.inSchema('contenttypes.contenttype');
  if (relation === 'content_type') {
    const column = field.column as string;
    if (CONTENT_TYPE_AS_TEXT[model.id]?.includes(field.name)) return { type: GraphQLString, ...reads([column]), resolve: (row) => row[column] ?? null };
    return contentTypes ? { type: parts.typeOf(contentTypes), ...reads([column]), resolve: (row, _args, ctx) => loadContentType(ctx, row[column]) } : undefined;
  }
  if (relation === 'content_types') {
    return contentTypes ? { ...listOf(parts, contentTypes), ...reads([]), resolve: (row, args, ctx) => loadContentTypes(ctx, model, field, row, args as ListArgs) } : undefined;
  }
  return scalarField(parts.enums, model, field);
}

/** The reference's name for a relation seen from its target: the declared `related_name`, else the owner's plural (`children` for a tree's parent). */
export function reverseName(owner: ResolvedModel, field: ResolvedField): string {
  if (field.related_name) return field.related_name;
  if (owner.tree && field.name === 'parent') return 'children';
  return (owner.verbose_name_plural.match(/\w+/g) ?? []).join('_').toLowerCase();
}

/** Lists (and one-to-one objects) of other models' rows pointing at this model, by their reverse names. */
function reverseFields(parts: SchemaParts, model: ResolvedModel, taken: Set<string>): Fields {
  const out: Fields = {};
  for (const { model: owner, field } of parts.services.registry.referencesTo(model.id)) {
    if (!parts.inSchema(owner.id) || field.hidden || field.write_only || field.common) continue;
    const name = reverseName(owner, field);
    if (name.endsWith('+') || taken.has(name) || name in out || !isGraphqlName(name)) continue;
    if (field.kind === 'fk' && field.unique) {
      out[name] = { type: parts.typeOf(owner), ...reads([]), resolve: (row, _args, ctx) => loadOneToOne(ctx, owner, field, row) };
      continue;
    }
    const relation = field.kind === 'm2m' ? manyToMany(owner, field, model, false) : reverseFk(owner, field, model);
    out[name] = { ...listOf(parts, owner), ...toManyField(relation) };
  }
  return out;
}

/** Generic relations as the reference resolves them: a union (`cable_peer`) and one field per possible model (`cable_peer_interface`). */
function genericFields(parts: SchemaParts, model: ResolvedModel): Fields {
  const out: Fields = {};
  for (const [name, spec] of Object.entries(GENERIC_UNIONS)) {
    if (model.fieldMap.get(name)?.kind !== 'generic_fk') continue;
    const union = parts.unionOf(name);
    if (union) out[name] = { type: union, ...reads([`${name}_type`, `${name}_id`]), resolve: (row, _args, ctx) => loadGeneric(ctx, row, name) };
    for (const id of spec.typed[model.id] ?? []) {
      const target = parts.inSchema(id);
      if (target) out[`${spec.prefix}_${toVarName(target.verbose_name)}`] = { type: parts.typeOf(target), ...reads([`${name}_type`, `${name}_id`]), resolve: (row, _args, ctx) => loadGenericAs(ctx, row, name, target) };
    }
  }
  return out;
}

/** The reference's hand-written additions: `url`, CIDR texts, `primary_ip`. */
function declaredFields(parts: SchemaParts, model: ResolvedModel): Fields {
  const out: Fields = {
    url: { type: GraphQLString, ...reads([]), resolve: (row) => (model.internal ? null : `/api/${model.app}/${model.path}/${row.id}/`) },
  };
  for (const name of COMPUTED_TEXT[model.id] ?? []) out[name] = { type: GraphQLString, ...reads(null), resolve: (row, _args, ctx) => loadComputed(ctx, model, name, row) };
  for (const [name, columns] of Object.entries(FIRST_OF[model.id] ?? {})) {
    const target = parts.inSchema(model.fieldMap.get(columns[0])?.to ?? '');
    if (!target) continue;
    const cols = columns.map((c) => model.fieldMap.get(c)?.column as string);
    out[name] = { type: parts.typeOf(target), ...objectField(target, cols) };
  }
  return out;
}

/** Every field of a model's type, in the reference's order: model fields, reverse relations, declared, dynamic. */
function fieldsOf(parts: SchemaParts, model: ResolvedModel): Fields {
  const fields: Fields = {};
  for (const field of model.fields) {
    if (!isShown(model, field)) continue;
    const config = modelField(parts, model, field);
    if (config) fields[field.name] = config;
  }
  if (model.fieldMap.has('custom_fields')) fields._custom_field_data = { type: GenericScalar, ...reads(['_custom_field_data']), resolve: (row) => row._custom_field_data ?? {} };
  const add = (extra: Fields) => {
    for (const [name, config] of Object.entries(extra)) if (!(name in fields)) fields[name] = config;
  };
  add(reverseFields(parts, model, new Set(Object.keys(fields))));
  add(declaredFields(parts, model));
  add(genericFields(parts, model));
  add(dynamicFields(parts, model));
  return fields;
}

/** The object type of a model (`DeviceType`), its fields built when the schema first asks for them. */
export function buildObjectType(parts: SchemaParts, model: ResolvedModel): GraphQLObjectType<Row, GqlContext> {
  return new GraphQLObjectType<Row, GqlContext>({ name: objectTypeName(model), description: model.doc, fields: () => fieldsOf(parts, model) });
}
