import type { Config } from '../core/config.js';
import type { Registry } from '../core/registry/registry.js';
import type { Dialect } from '../db/dialects/dialect.js';
import type { Store } from '../db/store.js';
import type { ModelExtensions } from './extensions.js';

/** What every operation needs; built once by buildApp. */
export type Services = {
  config: Config;
  registry: Registry;
  dialect: Dialect;
  store: Store;
  /** App extensions by model id (`*` for all models); see ops/extensions.ts. */
  extensions: ReadonlyMap<string, ModelExtensions[]>;
  /** Called after each write transaction commits (the queue's runner and the change stream wake on it; see queue/). */
  committed: Set<() => void>;
};

/** The authenticated caller. */
export type Actor = {
  id: string;
  username: string;
  is_superuser: boolean;
  is_active: boolean;
  /** Object permissions (users app); empty for superusers. */
  permissions: Permission[];
  /** False for a read-only token: only safe methods, and OPTIONS shows no actions. */
  write_enabled?: boolean;
  /** An unauthenticated reader let in by EXEMPT_VIEW_PERMISSIONS=*: holds no grants at all. */
  anonymous?: boolean;
};

/** One enabled grant: actions on object types, optionally constrained. */
export type Permission = {
  object_types: string[];
  actions: string[];
  /** Null: unconstrained. Object: AND of lookups. List: OR of objects. */
  constraints: Record<string, unknown> | Record<string, unknown>[] | null;
};

/** Per-request information operations record (change log) and render (URLs). */
export type RequestContext = {
  actor: Actor | null;
  requestId: string;
  /** scheme://host of the request, for absolute URLs. */
  baseUrl: string;
  /** Route name for the change log, e.g. `dcim-api:location-list` (a job's class path for jobs). */
  routeName: string;
  /** The change log's `change_context` (ObjectChangeEventContextChoices); `web` when unset. */
  changeContext?: 'web' | 'job' | 'job-hook' | 'orm';
};
