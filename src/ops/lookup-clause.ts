import { sql } from 'kysely';
import { toUuid } from '../core/fields/scalar.js';
import { joinTable } from '../db/schema/build-schema.js';
import { FALSE, TRUE, col } from '../db/query/sql-helpers.js';
import type { Expression } from 'kysely';
import type { Clause } from '../db/query/sql-helpers.js';
import type { Storage } from '../core/fields/kind.js';
import type { Registry } from '../core/registry/registry.js';
import type { ResolvedField, ResolvedModel } from '../core/registry/types.js';

/** An attribute path that names no field (the reference's "Cannot resolve keyword ..."). */
export class UnknownLookupError extends Error {}

const OPS: Record<string, string> = { exact: '=', lt: '<', lte: '<=', gt: '>', gte: '>=' };
const TEXT = new Set(['iexact', 'contains', 'icontains', 'startswith', 'istartswith', 'endswith', 'iendswith']);
const TERMINAL = new Set([...Object.keys(OPS), ...TEXT, 'in', 'isnull', 'range']);

type Ref = Expression<unknown>;

/**
 * One ORM-style lookup (`name`, `name__in`, `name__istartswith`, `status__name`,
 * `tenant__isnull`, `tags__name`) as a predicate; FK and many-to-many paths become
 * `IN (subquery)`, so any depth costs one statement.
 */
export function lookupClause(registry: Registry, model: ResolvedModel, key: string, value: unknown): Clause {
  const [head, ...rest] = key.split('__');
  const field = model.fieldMap.get(head === 'pk' ? 'id' : head);
  if (field && !field.column && (field.behaviour.relation === 'm2m' || field.behaviour.relation === 'content_types')) {
    return toManyClause(registry, model, field, rest, value);
  }
  if (!field?.column) throw new UnknownLookupError(`Cannot resolve keyword '${head}' into field.`);
  const target = field.kind === 'fk' && field.to ? registry.get(field.to) : undefined;
  if (target && rest.length > 0 && !TERMINAL.has(rest[0]) && rest[0] !== 'id' && rest[0] !== 'pk') {
    const inner = lookupClause(registry, target, rest.join('__'), value);
    return (eb) => eb(col(model.table, field.column as string), 'in', eb.selectFrom(target.table).select(`${target.table}.id`).where(inner));
  }
  const lookup = rest.filter((r) => r !== 'id' && r !== 'pk')[0] ?? 'exact';
  return valueClause({ ref: col(model.table, field.column), storage: field.behaviour.storage, name: head, encode: field.behaviour.encode }, lookup, value);
}

/** `tags__name=x`: some linked object matches; `object_types=dcim.location` for content-type lists. */
function toManyClause(registry: Registry, model: ResolvedModel, field: ResolvedField, rest: string[], value: unknown): Clause {
  const link = joinTable(model, field);
  let inner: Clause;
  if (field.behaviour.relation === 'content_types') {
    inner = valueClause({ ref: sql.ref(`${link}.content_type`), storage: 'text', name: field.name }, rest[0] ?? 'exact', value);
  } else {
    const target = registry.get(field.to as string);
    const path = rest.length > 0 && !TERMINAL.has(rest[0]) ? rest.join('__') : ['id', ...rest].join('__');
    const matched = lookupClause(registry, target, path, value);
    inner = (eb) => eb(`${link}.target_id`, 'in', eb.selectFrom(target.table).select(`${target.table}.id`).where(matched));
  }
  return (eb) => eb(col(model.table, 'id'), 'in', eb.selectFrom(link).select(`${link}.source_id`).where(inner));
}

/** `encode`: the kind's in-memory -> stored codec (address text -> 16 bytes), applied to compared values. */
type Column = { ref: Ref; storage: Storage; name: string; encode?: (value: unknown) => unknown };
const NEVER = Symbol('never matches');

/**
 * A value the column can be compared with, or NEVER: objects and lists equal no scalar, and a
 * UUID column equals no other text (PostgreSQL would reject the comparison outright).
 */
function comparable(column: Column, value: unknown): unknown {
  if (value === null) return null;
  if (typeof value === 'object') return NEVER;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (column.storage === 'uuid') return toUuid(value) ?? NEVER;
  // Integer columns (integer ids too) equal only whole numbers; PostgreSQL rejects other text.
  if (column.storage === 'integer' || column.storage === 'bigint') return /^\s*-?\d+\s*$/.test(String(value)) ? Number(value) : NEVER;
  return column.encode ? encoded(column.encode, value) : value;
}

/** A value as stored, or NEVER when the kind's codec refuses it (`network: 'x'`). */
function encoded(encode: (value: unknown) => unknown, value: unknown): unknown {
  try {
    return encode(value);
  } catch {
    return NEVER;
  }
}

/** The comparison at the end of a path, on one column; values of the wrong type match nothing. */
function valueClause(column: Column, lookup: string, value: unknown): Clause {
  const { ref } = column;
  if (lookup === 'isnull') return (eb) => eb(ref, value ? 'is' : 'is not', null);
  if (lookup === 'in') {
    const list = Array.isArray(value) ? value.map((v) => comparable(column, v)).filter((v) => v !== NEVER && v !== null) : [];
    return list.length ? (eb) => eb(ref, 'in', list) : FALSE;
  }
  if (lookup === 'range') {
    const [lo, hi] = Array.isArray(value) && value.length === 2 ? value.map((v) => comparable(column, v)) : [NEVER, NEVER];
    return lo === NEVER || hi === NEVER || lo === null || hi === null ? FALSE : (eb) => eb.and([eb(ref, '>=', lo), eb(ref, '<=', hi)]);
  }
  if (TEXT.has(lookup)) return value === null || typeof value === 'object' ? FALSE : textClause(ref, lookup, String(value));
  if (!OPS[lookup]) throw new UnknownLookupError(`Unsupported lookup '${lookup}' for field '${column.name}'.`);
  const v = comparable(column, value);
  if (v === NEVER) return FALSE;
  if (v === null) return lookup === 'exact' ? (eb) => eb(ref, 'is', null) : FALSE;
  return (eb) => eb(ref, OPS[lookup] as '=', v);
}

/**
 * Substring lookups without LIKE (whose case rules and escapes differ by database): prefix and
 * suffix by `substr`, containment by `replace`; the `i` forms compare lower-cased text.
 */
function textClause(ref: Ref, lookup: string, text: string): Clause {
  const fold = lookup.startsWith('i');
  const value = fold ? text.toLowerCase() : text;
  const subject = fold ? sql`lower(cast(${ref} as text))` : sql`cast(${ref} as text)`;
  const n = value.length;
  if (lookup === 'iexact') return () => sql`${subject} = ${value}`;
  if (n === 0) return TRUE;
  if (lookup.endsWith('startswith')) return () => sql`substr(${subject}, 1, ${n}) = ${value}`;
  if (lookup.endsWith('endswith')) return () => sql`(length(${subject}) >= ${n} and substr(${subject}, length(${subject}) - ${n - 1}) = ${value})`;
  return () => sql`replace(${subject}, ${value}, '') <> ${subject}`;
}
