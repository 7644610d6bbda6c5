import { fromStoredId, pkRepr, toRowId } from '../../core/registry/row-id.js';
import { fromCompositeKey } from '../../core/natural-key.js';
import { joinTable } from '../../db/schema/build-schema.js';
import { and, col } from '../../db/query/sql-helpers.js';
import { UnknownLookupError, lookupClause } from '../lookup-clause.js';
import { referenceClause } from '../permissions.js';
import { resolveNaturalKey } from './natural-key-lookup.js';
import { pyRepr } from './python-repr.js';
import type { Clause } from '../../db/query/sql-helpers.js';
import type { Exec } from '../../db/store.js';
import type { ResolvedField, ResolvedModel } from '../../core/registry/types.js';
import type { RequestContext, Services } from '../services.js';

export type Resolved = { ok: true; id: string | null } | { ok: false; error: string };

const URL_RE = /^(https?|ftp):\/\/(localhost|[^\s/:]+\.[^\s/:]+|\[[0-9a-f:]+\]|\d+\.\d+\.\d+\.\d+)(:\d+)?\/\S*$/i;

function flatten(attrs: Record<string, unknown>, prefix = ''): [string, unknown][] {
  return Object.entries(attrs).flatMap(([k, v]) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? flatten(v as Record<string, unknown>, `${prefix}${k}__`) : [[`${prefix}${k}`, v] as [string, unknown]],
  );
}

/**
 * Resolves related-object references of a write (UUID, URL, `{id}`/`{url}`, attribute dict,
 * composite natural key) to ids, within the target rows the actor may view (any user or group,
 * as the reference looks those up without permissions) and, for statuses,
 * roles and tags, those enabled for the source model. UUIDs are checked in bulk.
 */
export class ReferenceResolver {
  private readonly known = new Map<string, Set<string>>();

  constructor(private readonly services: Services, readonly exec: Exec, private readonly rc: RequestContext, private readonly source: ResolvedModel) {}

  private scope(field: ResolvedField, target: ResolvedModel): Clause | null {
    const clauses: Clause[] = [];
    if (field.limit_to_content_type) {
      const ctField = target.fields.find((fl) => fl.behaviour.relation === 'content_types');
      if (ctField) clauses.push((eb) => eb(col(target.table, 'id'), 'in', eb.selectFrom(joinTable(target, ctField)).select('source_id').where('content_type', '=', this.source.id)));
    }
    const constraint = this.rc.actor ? referenceClause(this.services, this.rc.actor, target) : null;
    if (constraint) clauses.push(constraint);
    return clauses.length ? and(clauses) : null;
  }

  /** Loads which of the given UUIDs exist in scope, in one query per field. */
  async prefetch(field: ResolvedField, values: unknown[]): Promise<void> {
    const target = this.services.registry.get(field.to as string);
    // Bulk writes name the same objects many times: each distinct value is read once.
    const ids = [...new Set(values)].map((v) => this.directId(target, v)).filter((id): id is string => !!id);
    const key = `${this.source.id}.${field.name}`;
    const set = this.known.get(key) ?? new Set<string>();
    this.known.set(key, set);
    const missing = [...new Set(ids)].filter((id) => !set.has(id));
    if (missing.length === 0) return;
    let query = this.exec.selectFrom(target.table).select(`${target.table}.id`).where(`${target.table}.id`, 'in', missing);
    const scope = this.scope(field, target);
    if (scope) query = query.where(scope);
    for (const row of await query.execute()) set.add(fromStoredId(row.id));
  }

  /** The id a value names directly (id string, URL, or `{id}`/`{url}` object). */
  private directId(target: ResolvedModel, value: unknown): string | undefined {
    if (typeof value === 'number') return toRowId(target, value);
    if (typeof value === 'string') {
      if (toRowId(target, value)) return toRowId(target, value);
      if (URL_RE.test(value)) return toRowId(target, value.replace(/\/+$/, '').split('/').pop() ?? '') ?? undefined;
      return undefined;
    }
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const obj = value as { id?: unknown; url?: unknown };
      if (typeof obj.url === 'string') return this.directId(target, obj.url);
      if (obj.id !== undefined) return toRowId(target, obj.id) ?? undefined;
    }
    return undefined;
  }

  /** The answer `resolve` would give, when it is known without a look-up (else undefined). */
  cached(_field: ResolvedField, value: unknown): Resolved | undefined {
    return value === null || value === undefined || value === '' ? { ok: true, id: null } : undefined;
  }

  async resolve(field: ResolvedField, value: unknown): Promise<Resolved> {
    if (value === null || value === undefined || value === '') return { ok: true, id: null };
    const target = this.services.registry.get(field.to as string);
    const direct = this.directId(target, value);
    if (direct) {
      await this.prefetch(field, [direct]);
      if (this.known.get(`${this.source.id}.${field.name}`)?.has(direct)) return { ok: true, id: direct };
      return { ok: false, error: `Related object not found using the provided attributes: {'pk': ${pkRepr(target, direct)}}` };
    }
    if (typeof value === 'string' && !URL_RE.test(value)) return this.byNaturalKey(field, target, value);
    if (value && typeof value === 'object' && !Array.isArray(value) && !('id' in value) && !('url' in value)) {
      return this.byAttributes(field, target, value as Record<string, unknown>);
    }
    return { ok: false, error: `Related objects must be referenced by ID or by dictionary of attributes. Received an unrecognized value: ${typeof value === 'string' ? value : JSON.stringify(value)}` };
  }

  private async byNaturalKey(field: ResolvedField, target: ResolvedModel, key: string): Promise<Resolved> {
    const ids = await resolveNaturalKey(this.services, this.exec, target, fromCompositeKey(key), this.scope(field, target) ?? undefined);
    if (ids.length === 1) return { ok: true, id: ids[0] };
    // The reference turns a key of the right shape into attributes first and names them; a
    // one-field natural key (a status or tag by name) is one this service can name the same way.
    const [single] = target.natural_key;
    const parts = fromCompositeKey(key);
    if (target.natural_key.length === 1 && target.fieldMap.get(single)?.kind !== 'fk' && parts.length === 1) {
      const attrs = pyRepr({ [single]: parts[0] });
      return { ok: false, error: ids.length > 1 ? `Multiple objects match the provided attributes: ${attrs}` : `Related object not found using the provided attributes: ${attrs}` };
    }
    if (ids.length > 1) return { ok: false, error: `Multiple objects match the provided composite-key: ${key}` };
    return { ok: false, error: `Related object not found using provided composite-key: ${key}` };
  }

  private async byAttributes(field: ResolvedField, target: ResolvedModel, attrs: Record<string, unknown>): Promise<Resolved> {
    let clauses: Clause[];
    try {
      clauses = flatten(attrs).map(([k, v]) => lookupClause(this.services.registry, target, k, v));
    } catch (err) {
      if (err instanceof UnknownLookupError) return { ok: false, error: err.message };
      throw err;
    }
    const scope = this.scope(field, target);
    if (scope) clauses.push(scope);
    const rows = await this.exec.selectFrom(target.table).select(`${target.table}.id`).where(and(clauses)).limit(2).execute();
    if (rows.length === 1) return { ok: true, id: fromStoredId(rows[0].id) };
    const shown = Object.fromEntries(flatten(attrs));
    if (rows.length > 1) return { ok: false, error: `Multiple objects match the provided attributes: ${pyRepr(shown)}` };
    return { ok: false, error: `Related object not found using the provided attributes: ${pyRepr(shown)}` };
  }
}
