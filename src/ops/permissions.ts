import { NotAuthenticatedError, PermissionDeniedError } from '../core/errors.js';
import { FALSE, and, or } from '../db/query/sql-helpers.js';
import { UnknownLookupError, lookupClause } from './lookup-clause.js';
import type { Clause } from '../db/query/sql-helpers.js';
import type { Registry } from '../core/registry/registry.js';
import type { ResolvedModel } from '../core/registry/types.js';
import type { Actor, Services } from './services.js';

/** Object permission actions; `run` and `approve` apply to jobs (the reference's extras.run_job, extras.approve_job). */
export type Action = 'view' | 'add' | 'change' | 'delete' | 'run' | 'approve';

/** Models whose view permission EXEMPT_VIEW_PERMISSIONS=* never exempts (reference settings). */
const NEVER_EXEMPT = new Set(['users.user', 'users.objectpermission', 'auth.group']);

/**
 * Models any authenticated user may read without an object permission, and no anonymous reader
 * may, whatever EXEMPT_VIEW_PERMISSIONS says (the reference serves them with IsAuthenticated only).
 */
const AUTHENTICATED_ONLY = new Set(['contenttypes.contenttype']);

/**
 * Models whose objects a write may name whatever the actor may view: the reference looks users
 * and groups up through querysets that apply no permissions (Django's own managers).
 */
const UNRESTRICTED_REFERENCES = new Set(['users.user', 'auth.group']);

function isExempt(services: Services, action: Action, modelId: string): boolean {
  const exempt = services.config.exemptViewPermissions;
  return action === 'view' && (exempt.includes(modelId) || (exempt.includes('*') && !NEVER_EXEMPT.has(modelId)));
}

function grants(actor: Actor, action: Action, modelId: string) {
  return actor.permissions.filter((p) => Array.isArray(p.actions) && p.actions.includes(action) && p.object_types.includes(modelId));
}

/**
 * Throws 403 unless the actor holds some grant of `action` on `model`; an anonymous reader
 * gets DRF's "credentials were not provided" text, as the reference answers the unauthenticated.
 */
export function requirePermission(services: Services, actor: Actor, action: Action, model: ResolvedModel): void {
  if (AUTHENTICATED_ONLY.has(model.id)) {
    if (actor.anonymous) throw new NotAuthenticatedError();
    return;
  }
  if (actor.is_superuser || isExempt(services, action, model.id)) return;
  if (grants(actor, action, model.id).length === 0) throw actor.anonymous ? new NotAuthenticatedError() : new PermissionDeniedError();
}

/**
 * Whether the actor holds `action` on the model named `modelId` (`dcim.device`), registered or
 * not: the reference's `user.has_perm('<app_label>.<action>_<model>')`.
 */
export function hasModelPermission(services: Services, actor: Actor, action: Action, modelId: string): boolean {
  return actor.is_superuser || isExempt(services, action, modelId) || grants(actor, action, modelId).length > 0;
}

/** Whether the actor holds `action` on `model` (OPTIONS decides which actions to show). */
export function hasPermission(services: Services, actor: Actor, action: Action, model: ResolvedModel): boolean {
  return hasModelPermission(services, actor, action, model.id);
}

function substitute(value: unknown, actor: Actor): unknown {
  if (value === '$user') return actor.id;
  if (Array.isArray(value)) return value.map((v) => substitute(v, actor));
  return value;
}

/** A constraint naming an unknown field matches nothing rather than everything. */
function safeLookup(registry: Registry, model: ResolvedModel, key: string, value: unknown): Clause {
  try {
    return lookupClause(registry, model, key, value);
  } catch (err) {
    if (err instanceof UnknownLookupError) return FALSE;
    throw err;
  }
}

/**
 * The SQL predicate limiting `model` rows to what the actor's grants of `action` allow:
 * constraints AND within one object, OR across objects and grants; null when unconstrained.
 */
export function constraintClause(services: Services, actor: Actor, action: Action, model: ResolvedModel): Clause | null {
  if (actor.is_superuser || isExempt(services, action, model.id) || AUTHENTICATED_ONLY.has(model.id)) return null;
  const list = grants(actor, action, model.id);
  if (list.some((p) => isUnconstrained(p.constraints))) return null;
  const sets = list.flatMap((p) => (Array.isArray(p.constraints) ? p.constraints : [p.constraints]));
  return or(sets.map((set) => setClause(services.registry, model, set, actor)));
}

/** The rows of `target` a write by the actor may reference: those it may view, or any for users and groups. */
export function referenceClause(services: Services, actor: Actor, target: ResolvedModel): Clause | null {
  return UNRESTRICTED_REFERENCES.has(target.id) ? null : constraintClause(services, actor, 'view', target);
}

/** Null, `{}` and `[]` restrict nothing (catalogue: users.objectpermission constraints). */
function isUnconstrained(constraints: unknown): boolean {
  if (constraints === null || constraints === undefined) return true;
  if (Array.isArray(constraints)) return constraints.length === 0;
  return isPlainObject(constraints) && Object.keys(constraints).length === 0;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One constraint object: its lookups ANDed; anything but an object matches nothing. */
function setClause(registry: Registry, model: ResolvedModel, set: unknown, actor: Actor): Clause {
  if (!isPlainObject(set)) return FALSE;
  return and(Object.entries(set).map(([k, v]) => safeLookup(registry, model, k, substitute(v, actor))));
}
