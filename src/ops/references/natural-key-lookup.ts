import { sql } from 'kysely';
import { col } from '../../db/query/sql-helpers.js';
import type { SqlBool } from 'kysely';
import type { Clause } from '../../db/query/sql-helpers.js';
import type { Exec } from '../../db/store.js';
import type { Registry } from '../../core/registry/registry.js';
import type { ResolvedField, ResolvedModel } from '../../core/registry/types.js';
import type { Services } from '../services.js';

/** How many composite-key components a model's natural key takes (Infinity for tree chains). */
function keyWidth(registry: Registry, model: ResolvedModel, seen: Set<string> = new Set()): number {
  if (seen.has(model.id)) return Infinity;
  const next = new Set(seen).add(model.id);
  let width = 0;
  for (const name of model.natural_key) {
    const field = model.fieldMap.get(name);
    if (field?.kind === 'fk' && field.to) width += keyWidth(registry, registry.get(field.to), next);
    else if (field?.kind === 'content_type') width += 2;
    else width += 1;
  }
  return width;
}

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const INTEGER = /^[-+]?\d+$/;

/**
 * Whether text can be compared with a column of this storage at all: text that no stored value
 * could equal (a name where an id is stored, a NUL character) matches nothing, instead of
 * making the database refuse the statement (PostgreSQL casts the parameter to the column's type).
 */
function isComparable(field: ResolvedField, value: string): boolean {
  if (value.includes('\0')) return false;
  switch (field.behaviour.storage) {
    case 'uuid': return UUID.test(value);
    case 'integer': return INTEGER.test(value.trim()) && Math.abs(Number(value)) < 2 ** 31;
    case 'bigint': return INTEGER.test(value.trim()) && BigInt(value.trim()) < 2n ** 63n && BigInt(value.trim()) >= -(2n ** 63n);
    case 'real': return value.trim() !== '' && Number.isFinite(Number(value));
    case 'json': case 'document': return isJson(value);
    default: return true;
  }
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** A key component as stored (kind codec, e.g. address text -> bytes); undefined when it cannot match. */
function toStoredKey(field: ResolvedField, value: string | null): unknown {
  if (value === null) return value;
  if (!isComparable(field, value)) return undefined;
  if (!field.behaviour.encode) return value;
  try {
    return field.behaviour.encode(value);
  } catch {
    return undefined;
  }
}

/** Predicate matching rows whose natural key equals `values` (missing trailing parts are null). */
export function naturalKeyClause(registry: Registry, model: ResolvedModel, values: (string | null)[]): Clause {
  const clauses: Clause[] = [];
  let rest = values;
  for (const name of model.natural_key) {
    const field = model.fieldMap.get(name === 'pk' ? 'id' : name);
    if (!field?.column) continue;
    const column = col(model.table, field.column);
    if (field.kind === 'fk' && field.to) {
      const target = registry.get(field.to);
      const width = keyWidth(registry, target);
      const slice = Number.isFinite(width) ? rest.slice(0, width) : rest;
      rest = Number.isFinite(width) ? rest.slice(width) : [];
      if (slice.every((v) => v === null || v === undefined)) clauses.push((eb) => eb(column, 'is', null));
      else {
        const inner = naturalKeyClause(registry, target, slice);
        clauses.push((eb) => eb(column, 'in', eb.selectFrom(target.table).select(`${target.table}.id`).where(inner)));
      }
      continue;
    }
    if (field.kind === 'content_type') {
      const [app, m] = rest;
      rest = rest.slice(2);
      clauses.push((eb) => eb(column, '=', `${app}.${m}`));
      continue;
    }
    const value = toStoredKey(field, rest[0] ?? null);
    rest = rest.slice(1);
    if (value === undefined) clauses.push(() => sql<SqlBool>`1 = 0`);
    else clauses.push(value === null ? (eb) => eb(column, 'is', null) : (eb) => eb(column, '=', value));
  }
  return (eb) => eb.and(clauses.map((c) => c(eb)));
}

/** Ids of rows whose natural key matches the composite-key values. */
export async function resolveNaturalKey(services: Services, exec: Exec, model: ResolvedModel, values: (string | null)[], extra?: Clause): Promise<string[]> {
  // No stored text holds a NUL character (PostgreSQL would refuse the parameter outright).
  if (values.some((v) => v?.includes('\0'))) return [];
  const clause = naturalKeyClause(services.registry, model, values);
  let query = exec.selectFrom(model.table).select(`${model.table}.id`).where(clause);
  if (extra) query = query.where(extra);
  const rows = await query.limit(2).execute();
  return rows.map((r) => String(r.id));
}
