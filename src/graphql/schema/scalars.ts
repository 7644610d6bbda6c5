import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
import type { ValueNode } from 'graphql';

/** A literal of any shape as a plain value (graphene's GenericScalar and JSON read literals so). */
function literalValue(node: ValueNode, variables?: Record<string, unknown> | null): unknown {
  switch (node.kind) {
    case Kind.STRING: case Kind.ENUM: return node.value;
    case Kind.BOOLEAN: return node.value;
    case Kind.INT: return Number.parseInt(node.value, 10);
    case Kind.FLOAT: return Number.parseFloat(node.value);
    case Kind.NULL: return null;
    case Kind.LIST: return node.values.map((v) => literalValue(v, variables));
    case Kind.OBJECT: return Object.fromEntries(node.fields.map((f) => [f.name.value, literalValue(f.value, variables)]));
    case Kind.VARIABLE: return variables?.[node.name.value];
  }
}

const identity = (value: unknown) => value;

/** Any JSON value, passed through (the reference's rendering of JSON fields and config contexts). */
export const GenericScalar = new GraphQLScalarType({
  name: 'GenericScalar',
  description: 'Any JSON value: string, number, boolean, list or object.',
  serialize: identity,
  parseValue: identity,
  parseLiteral: literalValue,
});

/** A JSON custom field's value, passed through (the reference's `JSON` scalar). */
export const JsonScalar = new GraphQLScalarType({ name: 'JSON', serialize: identity, parseValue: identity, parseLiteral: literalValue });

/** Integers beyond GraphQL's 32-bit Int (ASNs up to 2^32-1), as the reference's BigInteger. */
export const BigInteger = new GraphQLScalarType({
  name: 'BigInteger',
  description: 'An integer that may exceed the 32 bits of Int (e.g. a 4-byte ASN).',
  serialize: (value) => (value === null || value === undefined ? null : Number(value)),
  parseValue: (value) => Number(value),
  parseLiteral: (node) => (node.kind === Kind.INT ? Number.parseInt(node.value, 10) : null),
});

const asText = (value: unknown) => (value === null || value === undefined ? null : String(value));

function textLiteral(node: ValueNode): string {
  if (node.kind !== Kind.STRING) throw new GraphQLError(`Expected a string, got ${node.kind}.`, { nodes: node });
  return node.value;
}

/** A UUID as its text. */
export const UuidScalar = new GraphQLScalarType({
  name: 'UUID',
  description: 'A UUID as text.',
  serialize: asText,
  parseValue: asText,
  parseLiteral: textLiteral,
});

/** A date `YYYY-MM-DD`. */
export const DateScalar = new GraphQLScalarType({
  name: 'Date',
  description: 'A date, YYYY-MM-DD.',
  serialize: asText,
  parseValue: asText,
  parseLiteral: textLiteral,
});

/** A date custom field's value as given (the reference's DateType passes date texts through). */
export const DateTypeScalar = new GraphQLScalarType({ name: 'DateType', serialize: asText, parseValue: asText, parseLiteral: textLiteral });

/**
 * A stored UTC time as Python's `isoformat()` writes it: `+00:00` for the zone, microseconds
 * only when there are any (`2024-05-01T10:00:00+00:00`, `2024-05-01T10:00:00.250000+00:00`).
 */
export function toPythonIso(stored: unknown): string | null {
  if (stored === null || stored === undefined) return null;
  const text = String(stored);
  const match = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:?\d{2})?$/.exec(text);
  if (!match) return text;
  const micros = (match[3] ?? '').padEnd(6, '0').slice(0, 6);
  const zone = !match[4] || match[4] === 'Z' ? '+00:00' : match[4];
  return `${match[1]}T${match[2]}${/^0+$/.test(micros) ? '' : `.${micros}`}${zone}`;
}

/** A date and time (ISO 8601). */
export const DateTimeScalar = new GraphQLScalarType({
  name: 'DateTime',
  description: 'A date and time in ISO 8601 with its UTC offset.',
  serialize: toPythonIso,
  parseValue: asText,
  parseLiteral: textLiteral,
});

/** A decimal number as its text (`0.95`). */
export const DecimalScalar = new GraphQLScalarType({
  name: 'Decimal',
  description: 'A decimal number as text.',
  serialize: asText,
  parseValue: asText,
  parseLiteral: (node) => (node.kind === Kind.STRING || node.kind === Kind.INT || node.kind === Kind.FLOAT ? node.value : null),
});
