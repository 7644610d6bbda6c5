import { defaultFieldResolver, defaultTypeResolver, getArgumentValues, getNamedType, isAbstractType, isLeafType, isListType, isNonNullType, isObjectType } from 'graphql';
import { buildExecutionContext } from 'graphql/execution/execute.js';
import { collectFields, collectSubfields } from 'graphql/execution/collectFields.js';
import type { ExecutionArgs, ExecutionResult, FieldNode, GraphQLAbstractType, GraphQLField, GraphQLObjectType, GraphQLOutputType, GraphQLResolveInfo } from 'graphql';
import type { ExecutionContext } from 'graphql/execution/execute.js';

/**
 * Runs a query as graphql-js would, but a level at a time: each field of a level is planned once
 * (its arguments coerced, its resolve info built, its sub-selection collected) and resolved for
 * every object of the level, and the objects it returns form one next level. graphql-js does this
 * work again for every object, which dominates a query over thousands of rows.
 *
 * It answers only the plain case: no field error, no null in a non-null position, abstract
 * types resolved synchronously, no introspection field but `__typename`. On anything else it
 * gives up (null) and the caller runs graphql-js's executor afresh, whose answer (errors with
 * their paths, null propagation) is then the response; results are byte-identical either way.
 */
export async function executeByLevel(args: ExecutionArgs): Promise<ExecutionResult | null> {
  const built = buildExecutionContext(args);
  if (!('schema' in built)) return null;
  const exe = built;
  if (exe.operation.operation !== 'query') return null;
  const root = exe.schema.getQueryType();
  if (!root) return null;
  const data = Object.create(null) as Record<string, unknown>;
  const fields = collectFields(exe.schema, exe.fragments, exe.variableValues, root, exe.operation.selectionSet);
  try {
    await runLevel(exe, { type: root, sources: [exe.rootValue], outs: [data], fields });
  } catch {
    return null;
  }
  return { data };
}

/**
 * A field's resolver for a whole level at once (`extensions.resolveLevel`): the values for these
 * sources in their order, as `resolve` would give them one by one. graphql-js's executor, which
 * calls `resolve`, ignores it.
 */
export type LevelResolver<S, C> = (sources: S[], args: Record<string, unknown>, context: C, info: GraphQLResolveInfo) => Promise<unknown[]>;

/** Raised where graphql-js's executor must answer instead. */
class GiveUp extends Error {}

/** The objects of one type at one place of the query: their sources, their (still empty) results, the fields asked. */
type Level = { type: GraphQLObjectType; sources: unknown[]; outs: Record<string, unknown>[]; fields: Map<string, readonly FieldNode[]> };

/** Where the objects a field returns go: one level per object type met (an abstract type's members each have theirs). */
type Below = { exe: ExecutionContext; nodes: readonly FieldNode[]; info: GraphQLResolveInfo; levels: Map<GraphQLObjectType, Level> };

/** One field of a level: where its values go, how they complete, and the levels they feed. */
type Planned = { key: string; type: GraphQLOutputType | null; values: unknown[] | Promise<unknown[]>; below: Below | null };

function isPromise(value: unknown): value is Promise<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

function resolveInfo(exe: ExecutionContext, parentType: GraphQLObjectType, def: GraphQLField<unknown, unknown>, nodes: readonly FieldNode[]): GraphQLResolveInfo {
  return {
    fieldName: def.name, fieldNodes: nodes, returnType: def.type, parentType, path: { prev: undefined, key: def.name, typename: parentType.name },
    schema: exe.schema, fragments: exe.fragments, rootValue: exe.rootValue, operation: exe.operation, variableValues: exe.variableValues,
  };
}

/** The level of `type` objects under these field nodes, begun when the first one comes. */
function levelOf(below: Below, type: GraphQLObjectType): Level {
  let level = below.levels.get(type);
  if (!level) {
    if (type.isTypeOf) throw new GiveUp();
    level = { type, sources: [], outs: [], fields: collectSubfields(below.exe.schema, below.exe.fragments, below.exe.variableValues, type, below.nodes) };
    below.levels.set(type, level);
  }
  return level;
}

/** The object type an abstract type's value is, as graphql-js resolves it (synchronously only). */
function runtimeType(below: Below, type: GraphQLAbstractType, value: unknown): GraphQLObjectType {
  const name = (type.resolveType ?? defaultTypeResolver)(value, below.exe.contextValue, below.info, type);
  const found = typeof name === 'string' ? below.exe.schema.getType(name) : undefined;
  if (!isObjectType(found) || !below.exe.schema.isSubType(type, found)) throw new GiveUp();
  return found;
}

/** Calls the field's resolver for every source of the level (resolvers batch their reads among these calls). */
function plan(exe: ExecutionContext, level: Level, key: string, nodes: readonly FieldNode[]): Planned {
  const name = nodes[0].name.value;
  if (name === '__typename') return { key, type: null, values: level.sources.map(() => level.type.name), below: null };
  const def = level.type.getFields()[name];
  if (!def) throw new GiveUp();
  const args = getArgumentValues(def, nodes[0], exe.variableValues);
  const info = resolveInfo(exe, level.type, def, nodes);
  const below = isLeafType(getNamedType(def.type)) ? null : { exe, nodes, info, levels: new Map() };
  const resolveLevel = def.extensions.resolveLevel as LevelResolver<unknown, unknown> | undefined;
  if (resolveLevel) return { key, type: def.type, values: resolveLevel(level.sources, args, exe.contextValue, info), below };
  const resolve = def.resolve ?? defaultFieldResolver;
  return { key, type: def.type, values: level.sources.map((source) => resolve(source, args, exe.contextValue, info)), below };
}

/** A resolved value as graphql-js completes it for `type`; objects become empty results of a level below. */
function complete(type: GraphQLOutputType, value: unknown, below: Below | null): unknown {
  if (value instanceof Error) throw new GiveUp();
  if (isNonNullType(type)) {
    const done = complete(type.ofType, value, below);
    if (done === null) throw new GiveUp();
    return done;
  }
  if (value === null || value === undefined) return null;
  if (isListType(type)) {
    if (!Array.isArray(value)) throw new GiveUp();
    return value.map((item) => complete(type.ofType, item, below));
  }
  if (isLeafType(type)) {
    const serialized = type.serialize(value);
    if (serialized === undefined) throw new GiveUp();
    return serialized;
  }
  const level = levelOf(below!, isAbstractType(type) ? runtimeType(below!, type, value) : type);
  const out = Object.create(null) as Record<string, unknown>;
  level.sources.push(value);
  level.outs.push(out);
  return out;
}

/** Resolves and completes every field of a level, then the levels below it, side by side. */
async function runLevel(exe: ExecutionContext, level: Level): Promise<void> {
  const planned: Planned[] = [];
  try {
    for (const [key, nodes] of level.fields) planned.push(plan(exe, level, key, nodes));
  } catch (err) {
    for (const p of planned) for (const v of isPromise(p.values) ? [p.values] : p.values) if (isPromise(v)) v.then(undefined, () => undefined);
    throw err;
  }
  const values = await Promise.all(planned.map((p) => (isPromise(p.values) ? p.values : p.values.some(isPromise) ? Promise.all(p.values) : p.values)));
  planned.forEach((p, f) => {
    const list = values[f];
    for (let i = 0; i < list.length; i += 1) level.outs[i][p.key] = p.type ? complete(p.type, list[i], p.below) : list[i];
  });
  await Promise.all(planned.flatMap((p) => [...(p.below?.levels.values() ?? [])].map((next) => runLevel(exe, next))));
}
