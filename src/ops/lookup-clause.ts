import { sql } from 'kysely';
import { toUuid } from '../core/fields/scalar.js';
import { joinTable } from '../db/schema/build-schema.js';
import { FALSE, col, escapeLike } from '../db/query/sql-helpers.js';
import type { Expression } from 'kysely';
import type { Clause } from '../db/query/sql-helpers.js';
import type { Dialect } from '../db/dialects/dialect.js';
import type { Storage } from '../core/fields/kind.js';
import type { Reference, Registry } from '../core/registry/registry.js';
import type { ResolvedField, ResolvedModel } from '../core/registry/types.js';

/** An attribute path that names no field (the reference's "Cannot resolve keyword ..."). */
export class UnknownLookupError extends Error {}

const OPS: Record<string, string> = { exact: '=', lt: '<', lte: '<=', gt: '>', gte: '>=' };
const TEXT = new Set(['iexact', 'contains', 'icontains', 'startswith', 'istartswith', 'endswith', 'iendswith']);
const TERMINAL = new Set([...Object.keys(OPS), ...TEXT, 'in', 'isnull', 'range']);

type Ref = Expression<unknown>;

/**
 * What a lookup is resolved against: the registry, and optionally the database's
 * case-insensitive LIKE, which the `i` text lookups then use (cheaper than lower-casing every
 * value: SQLite's LIKE folds ASCII case as its `lower` does).
 */
type Scope = { registry: Registry; ilike?: Dialect['ilike'] };

/** The parts of a content type a path may name after a content-type field (`content_type__model`). */
const CONTENT_TYPE_PARTS: Record<string, (id: string) => string> = {
  app_label: (id) => id.slice(0, id.indexOf('.')),
  model: (id) => id.slice(id.indexOf('.') + 1),
};

/** The rest of a path into a related model: its own path, or its `id` when the rest is only a lookup. */
const intoTarget = (rest: string[]): string => (rest.length > 0 && !TERMINAL.has(rest[0]) ? rest : ['id', ...rest]).join('__');

/**
 * One ORM-style lookup (`name`, `name__in`, `name__istartswith`, `status__name`,
 * `tenant__isnull`, `tags__name`, `members__name` through a declared `related_name`,
 * `content_type__model`) as a predicate; FK, reverse and many-to-many paths become
 * `IN (subquery)`, so any depth costs one statement.
 */
export function lookupClause(registry: Registry, model: ResolvedModel, key: string, value: unknown, opts: { ilike?: Dialect['ilike'] } = {}): Clause {
  return pathClause({ registry, ...opts }, model, key, value);
}

function pathClause(scope: Scope, model: ResolvedModel, key: string, value: unknown): Clause {
  const { registry } = scope;
  const [head, ...rest] = key.split('__');
  const field = model.fieldMap.get(head === 'pk' ? 'id' : head);
  const reverse = field ? undefined : registry.referencesTo(model.id).find((r) => r.field.related_name === head && r.field.column);
  if (reverse) return reverseClause(scope, model, reverse, rest, value);
  if (field && !field.column && (field.behaviour.relation === 'm2m' || field.behaviour.relation === 'content_types')) {
    return toManyClause(scope, model, field, rest, value);
  }
  if (!field?.column) throw new UnknownLookupError(`Cannot resolve keyword '${head}' into field.`);
  if (field.behaviour.relation === 'content_type' && CONTENT_TYPE_PARTS[rest[0]]) return contentTypePartClause(registry, col(model.table, field.column), rest, value);
  const target = field.kind === 'fk' && field.to ? registry.get(field.to) : undefined;
  if (target && rest.length > 0 && !TERMINAL.has(rest[0]) && rest[0] !== 'id' && rest[0] !== 'pk') {
    const inner = pathClause(scope, target, rest.join('__'), value);
    return (eb) => eb(col(model.table, field.column as string), 'in', eb.selectFrom(target.table).select(`${target.table}.id`).where(inner));
  }
  const lookup = rest.filter((r) => r !== 'id' && r !== 'pk')[0] ?? 'exact';
  return valueClause(scope, { ref: col(model.table, field.column), storage: field.behaviour.storage, name: head, encode: field.behaviour.encode }, lookup, value);
}

/** `members__name=x` (a reverse FK by its `related_name`): some object pointing here matches. */
function reverseClause(scope: Scope, model: ResolvedModel, reverse: Reference, rest: string[], value: unknown): Clause {
  const { model: owner, field } = reverse;
  const matched = pathClause(scope, owner, intoTarget(rest), value);
  return (eb) => eb(col(model.table, 'id'), 'in', eb.selectFrom(owner.table).select(col(owner.table, field.column as string).as('target')).where(matched));
}

/** `tags__name=x`: some linked object matches; `object_types=dcim.location` for content-type lists. */
function toManyClause(scope: Scope, model: ResolvedModel, field: ResolvedField, rest: string[], value: unknown): Clause {
  const link = joinTable(model, field);
  let inner: Clause;
  if (field.behaviour.relation === 'content_types') {
    const ref = sql.ref(`${link}.content_type`);
    inner = CONTENT_TYPE_PARTS[rest[0]] ? contentTypePartClause(scope.registry, ref, rest, value) : valueClause(scope, { ref, storage: 'text', name: field.name }, rest[0] ?? 'exact', value);
  } else {
    const target = scope.registry.get(field.to as string);
    const matched = pathClause(scope, target, intoTarget(rest), value);
    inner = (eb) => eb(`${link}.target_id`, 'in', eb.selectFrom(target.table).select(`${target.table}.id`).where(matched));
  }
  return (eb) => eb(col(model.table, 'id'), 'in', eb.selectFrom(link).select(`${link}.source_id`).where(inner));
}

/**
 * `content_type__model__icontains=dev`: content types are stored as `<app_label>.<model>` text,
 * so the matching ones are chosen among the registry's models and compared whole.
 */
function contentTypePartClause(registry: Registry, ref: Ref, rest: string[], value: unknown): Clause {
  const [part, lookup = 'exact'] = rest;
  const matches = textMatcher(lookup, value, part);
  const names = registry.models.map((m) => m.id).filter((id) => matches(CONTENT_TYPE_PARTS[part](id)));
  return names.length ? (eb) => eb(ref, 'in', names) : FALSE;
}

/** A text lookup evaluated in memory, for values the service knows without reading a table. */
function textMatcher(lookup: string, value: unknown, name: string): (text: string) => boolean {
  if (lookup === 'in') return (text) => Array.isArray(value) && value.map(String).includes(text);
  if (lookup !== 'exact' && !TEXT.has(lookup)) throw new UnknownLookupError(`Unsupported lookup '${lookup}' for field '${name}'.`);
  if (value === null || typeof value === 'object') return () => false;
  const fold = lookup.startsWith('i');
  const wanted = fold ? String(value).toLowerCase() : String(value);
  const tests: Record<string, (text: string) => boolean> = {
    exact: (text) => text === wanted,
    contains: (text) => text.includes(wanted),
    startswith: (text) => text.startsWith(wanted),
    endswith: (text) => text.endsWith(wanted),
  };
  const test = tests[fold ? lookup.slice(1) : lookup];
  return (text) => test(fold ? text.toLowerCase() : text);
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
  // Integer columns (integer ids too) equal only whole numbers they can hold; PostgreSQL rejects
  // other text and numbers out of the column's range.
  if (column.storage === 'integer' || column.storage === 'bigint') return /^\s*-?\d+\s*$/.test(String(value)) ? inRange(column.storage, Number(value)) : NEVER;
  return column.encode ? encoded(column.encode, value) : value;
}

/** Largest magnitude of a number an integer column is compared with (PostgreSQL `integer`; `bigint` as far as doubles are exact). */
const INTEGER_LIMIT: Record<string, number> = { integer: 2 ** 31 - 1, bigint: Number.MAX_SAFE_INTEGER };

const inRange = (storage: Storage, n: number): number | typeof NEVER => (Math.abs(n) <= INTEGER_LIMIT[storage] ? n : NEVER);

/**
 * Storages whose text form is canonical (a lower-case hyphenated UUID, a plain decimal), so
 * `iexact` on them is `=` with the value that text names, by index, or matches nothing.
 */
const CANONICAL_TEXT: Partial<Record<Storage, (text: string) => unknown>> = {
  uuid: (text) => (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text) ? text.toLowerCase() : NEVER),
  integer: (text) => (/^-?(0|[1-9]\d*)$/.test(text) ? inRange('integer', Number(text)) : NEVER),
  bigint: (text) => (/^-?(0|[1-9]\d*)$/.test(text) ? inRange('bigint', Number(text)) : NEVER),
};

/** A value as stored, or NEVER when the kind's codec refuses it (`network: 'x'`). */
function encoded(encode: (value: unknown) => unknown, value: unknown): unknown {
  try {
    return encode(value);
  } catch {
    return NEVER;
  }
}

/** The comparison at the end of a path, on one column; values of the wrong type match nothing. */
function valueClause(scope: Scope, column: Column, lookup: string, value: unknown): Clause {
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
  if (TEXT.has(lookup)) {
    if (value === null || typeof value === 'object') return FALSE;
    const canonical = lookup === 'iexact' ? CANONICAL_TEXT[column.storage] : undefined;
    if (canonical) {
      const v = canonical(String(value));
      return v === NEVER ? FALSE : (eb) => eb(ref, '=', v);
    }
    return scope.ilike && lookup.startsWith('i') ? likeClause(scope.ilike, ref, lookup, String(value)) : textClause(ref, lookup, String(value));
  }
  if (!OPS[lookup]) throw new UnknownLookupError(`Unsupported lookup '${lookup}' for field '${column.name}'.`);
  const v = comparable(column, value);
  if (v === NEVER) return FALSE;
  if (v === null) return lookup === 'exact' ? (eb) => eb(ref, 'is', null) : FALSE;
  return (eb) => eb(ref, OPS[lookup] as '=', v);
}

/** LIKE patterns of the `i` text lookups, from the escaped value. */
const LIKE_PATTERNS: Record<string, (v: string) => string> = {
  iexact: (v) => v,
  icontains: (v) => `%${v}%`,
  istartswith: (v) => `${v}%`,
  iendswith: (v) => `%${v}`,
};

/** An `i` text lookup by the database's case-insensitive LIKE (NULL matches nothing, as in the reference). */
function likeClause(ilike: Dialect['ilike'], ref: Ref, lookup: string, text: string): Clause {
  return () => ilike(sql`${ref}`, LIKE_PATTERNS[lookup](escapeLike(text))) as never;
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
  // Every text contains the empty one; a NULL contains nothing (SQL LIKE '%%' in the reference).
  if (n === 0) return (eb) => eb(ref, 'is not', null);
  if (lookup.endsWith('startswith')) return () => sql`substr(${subject}, 1, ${n}) = ${value}`;
  if (lookup.endsWith('endswith')) return () => sql`(length(${subject}) >= ${n} and substr(${subject}, length(${subject}) - ${n - 1}) = ${value})`;
  return () => sql`replace(${subject}, ${value}, '') <> ${subject}`;
}
