import { GraphQLError, Kind, parse } from 'graphql';
import type { ValueNode } from 'graphql';
import type { RuleContext, SaveContext } from '../../core/registry/types.js';

/** The text of a saved query parsed, or the syntax error's message. */
function parseQuery(text: unknown): ReturnType<typeof parse> | string {
  try {
    return parse(String(text ?? ''));
  } catch (err) {
    return err instanceof GraphQLError ? err.message : String(err);
  }
}

/** A default value as the reference stores it: a literal's text (`"5"` for 5), booleans and null as they are. */
function literal(node: ValueNode): unknown {
  switch (node.kind) {
    case Kind.BOOLEAN: return node.value;
    case Kind.NULL: return null;
    case Kind.LIST: return node.values.map(literal);
    case Kind.OBJECT: return Object.fromEntries(node.fields.map((f) => [f.name.value, literal(f.value)]));
    case Kind.VARIABLE: return node.name.value;
    default: return node.value;
  }
}

/**
 * before_save of saved GraphQL queries: `variables` holds each variable the query's operations
 * declare, with its default value or '' (the reference's GraphQLQuery.save).
 */
export function deriveVariables({ row }: SaveContext): void {
  const document = parseQuery(row.query);
  const variables: Record<string, unknown> = {};
  if (typeof document !== 'string') {
    for (const definition of document.definitions) {
      if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
      for (const variable of definition.variableDefinitions ?? []) variables[variable.variable.name.value] = variable.defaultValue ? literal(variable.defaultValue) : '';
    }
  }
  row.variables = variables;
}

/** A saved query must parse (its syntax only: the schema follows the data, as in the reference's clean()). */
export function queryParses({ row }: RuleContext): Record<string, string> | void {
  const document = parseQuery(row.query);
  if (typeof document === 'string') return { query: document };
}
