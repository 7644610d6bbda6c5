import { GraphQLError, Kind, execute, parse, specifiedRules, validate } from 'graphql';
import { maxDepthRule } from './depth-limit.js';
import { executeByLevel } from './execute-by-level.js';
import { GqlContext } from './resolve/context.js';
import { currentSchema } from './schema/schema-cache.js';
import type { DocumentNode, OperationDefinitionNode } from 'graphql';
import type { RequestContext, Services } from '../ops/services.js';

/** A GraphQL request as the endpoint reads it (`query`, `variables`, `operationName`). */
export type GraphqlRequest = { query: unknown; variables?: unknown; operationName?: unknown };

/**
 * The answer: the reference's status (400 when the query cannot run: no query, bad syntax,
 * invalid against the schema, bad variables, not a query; 200 once it ran, errors or not) and
 * its body, `errors` before `data` as the reference orders them.
 */
export type GraphqlResponse = { status: number; body: { errors?: unknown[]; data?: unknown }; phase: 'request' | 'syntax' | 'validation' | 'execution' };

/** Tokens a document may hold: a guard against documents built to make parsing and validation slow. */
const MAX_TOKENS = 100_000;

/** An error as the reference formats one: `message`, then `locations` and `path` when known. */
export function formatError(error: GraphQLError | Error): Record<string, unknown> {
  if (!(error instanceof GraphQLError)) return { message: error.message };
  const out: Record<string, unknown> = { message: error.message };
  if (error.locations) out.locations = error.locations.map(({ line, column }) => ({ line, column }));
  if (error.path) out.path = error.path;
  return out;
}

const refused = (message: string): GraphqlResponse => ({ status: 400, body: { errors: [{ message }] }, phase: 'request' });

/** The operation that will run: the one named, else the only one (null when that is ambiguous). */
function chosenOperation(document: DocumentNode, name: string | null): OperationDefinitionNode | null {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (name) return operations.find((o) => o.name?.value === name) ?? null;
  return operations.length === 1 ? operations[0] : null;
}

/** `variables` as given, or parsed from a JSON text as the reference accepts them. */
function readVariables(raw: unknown): { ok: true; value: Record<string, unknown> | null } | { ok: false } {
  if (typeof raw !== 'string' || raw === '') return { ok: true, value: (raw || null) as Record<string, unknown> | null };
  try {
    return { ok: true, value: JSON.parse(raw) as Record<string, unknown> };
  } catch {
    return { ok: false };
  }
}

export type RunOptions = { generation?: Promise<string | null> };

/**
 * Runs one read query for the caller: parses it, refuses other operations, validates it against
 * the current schema (with the depth limit), and executes it with batched, permission-narrowed
 * reads, a level at a time (graphql-js's executor when a query needs it: execute-by-level.ts). A
 * query that would return more objects than GRAPHQL_MAX_NODES ends with that one error.
 */
export async function runGraphql(services: Services, rc: RequestContext, request: GraphqlRequest, opts: RunOptions = {}): Promise<GraphqlResponse> {
  if (!request.query) return refused('Must provide query string.');
  const variables = readVariables(request.variables);
  if (!variables.ok) return refused('Variables are invalid JSON.');
  const operationName = typeof request.operationName === 'string' && request.operationName !== 'null' ? request.operationName : null;
  let document: DocumentNode;
  try {
    document = parse(String(request.query), { maxTokens: MAX_TOKENS });
  } catch (err) {
    return { status: 400, body: { errors: [formatError(err as Error)] }, phase: 'syntax' };
  }
  const operation = chosenOperation(document, operationName);
  if (operation && operation.operation !== 'query') return refused(`'${operation.operation}' is not a supported operation, Only query are supported.`);
  const schema = await currentSchema(services, opts.generation);
  const invalid = validate(schema, document, [...specifiedRules, maxDepthRule(services.config.graphqlMaxDepth)]);
  if (invalid.length > 0) return { status: 400, body: { errors: invalid.map(formatError) }, phase: 'validation' };
  const max = services.config.graphqlMaxNodes;
  const newContext = () => new GqlContext(services, rc, { max: max > 0 ? max : Number.MAX_SAFE_INTEGER, used: 0 });
  let contextValue = newContext();
  const args = { schema, document, variableValues: variables.value, operationName };
  let result = await executeByLevel({ ...args, contextValue });
  // A query past the node budget ends with that error whichever executor ran it.
  if (!result && !contextValue.aborted) {
    contextValue = newContext();
    result = await execute({ ...args, contextValue });
  }
  if (contextValue.aborted) return { status: 200, body: { errors: [formatError(contextValue.aborted)], data: null }, phase: 'execution' };
  if (!result || !('data' in result)) return { status: 400, body: { errors: (result?.errors ?? []).map(formatError) }, phase: 'validation' };
  return { status: 200, body: { ...(result.errors ? { errors: result.errors.map(formatError) } : {}), data: result.data }, phase: 'execution' };
}
