import type { ResolvedField } from '../registry/types.js';

/**
 * Abstract storage class of a column; each dialect maps it to a SQL type and codec. `json` is a
 * JSON value the database can query inside (PostgreSQL jsonb); `document` a JSON value only ever
 * written and read whole, kept as its text (PostgreSQL json: no conversion on write).
 */
export type Storage = 'text' | 'integer' | 'bigint' | 'real' | 'boolean' | 'json' | 'document' | 'uuid' | 'binary' | 'none';

/** Outcome of parsing one input value: the value, or a message for the field. */
export type Parsed = { ok: true; value: unknown } | { ok: false; error: string };

export const ok = (value: unknown): Parsed => ({ ok: true, value });
export const fail = (error: string): Parsed => ({ ok: false, error });

/** Lookup families for filters (api-behaviour.md section 7). */
export const STRING_LOOKUPS = ['n', 'ic', 'nic', 'isw', 'nisw', 'iew', 'niew', 'ie', 'nie', 're', 'nre', 'ire', 'nire'] as const;
export const NUMERIC_LOOKUPS = ['n', 'lt', 'lte', 'gt', 'gte'] as const;
export const EXACT_LOOKUPS = ['n'] as const;

/**
 * Behaviour of one field kind: how it is stored, validated on write, rendered, filtered and
 * described in OPTIONS. Every layer reads this table instead of branching on the kind name.
 */
export type KindBehaviour = {
  storage: Storage;
  /** `type` in OPTIONS metadata. */
  optionsType: string;
  /** Lookup suffixes offered by the generated filter (`<field>__<lookup>`). */
  lookups: readonly string[];
  /** Relation family handled by the reference resolver and the loaders, if any. */
  relation?: 'fk' | 'm2m' | 'content_types' | 'content_type' | 'generic';
  /** Derived read-only value computed at read time and left out of nested objects (counts, tree depth). */
  derived?: boolean;
  /** Value supplied by an app extension's computed loader (ops/extensions.ts). */
  computed?: boolean;
  /** Validates and normalises an API input value (not null: null is handled generically). */
  parse(value: unknown, field: ResolvedField): Parsed;
  /** Renders a stored (decoded) value for the API. */
  render(value: unknown, field: ResolvedField): unknown;
  /** Parses one filter value from the query string. */
  parseFilter(raw: string, field: ResolvedField): Parsed;
  /** In-memory value -> stored value, before the dialect's codec (e.g. address text -> 16 bytes). */
  encode?(value: unknown): unknown;
  /** The value a null input stands for when the field is not nullable (a MAC address: empty), instead of refusing it. */
  nullInput?: unknown;
  /** Stored value -> in-memory value, after the dialect's codec; `raw` is the whole stored row. */
  decode?(value: unknown, raw: Record<string, unknown>): unknown;
};
