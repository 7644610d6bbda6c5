import type { AuthoredField, AuthoredModel, ChoiceSet, FieldKind } from './types.js';
import type { NaturalStyle } from '../natural-order.js';

type Opts = Omit<AuthoredField, 'kind'>;

const make = (kind: FieldKind) => (opts: Opts = {}): AuthoredField => ({ kind, ...opts });

/**
 * Field-kind helpers for model declarations.
 * @example fields: { name: f.string({ max_length: 255, required: true }), parent: f.fk('dcim.location', { on_delete: 'CASCADE' }) }
 */
export const f = {
  string: make('string'),
  text: make('text'),
  color: (opts: Opts = {}) => ({ kind: 'color' as const, max_length: 6, default: '9e9e9e', ...opts }),
  email: make('email'),
  url: make('url'),
  slug: make('slug'),
  timeZone: make('time_zone'),
  password: make('password'),
  integer: make('integer'),
  positiveInteger: (opts: Opts = {}) => ({ kind: 'positive_integer' as const, min_value: 0, max_value: 32767, ...opts }),
  bigInteger: make('big_integer'),
  decimal: make('decimal'),
  float: make('float'),
  boolean: make('boolean'),
  date: make('date'),
  datetime: make('datetime'),
  json: make('json'),
  jsonDocument: make('json_document'),
  uuid: make('uuid'),
  choice: (choices: ChoiceSet, opts: Opts = {}) => ({ kind: 'choice' as const, choices, ...opts }),
  fk: (to: string, opts: Opts = {}) => ({ kind: 'fk' as const, to, on_delete: 'PROTECT' as const, ...opts }),
  m2m: (to: string, opts: Opts = {}) => ({ kind: 'm2m' as const, to, ...opts }),
  /** Status FK limited to statuses enabled for the model. */
  status: (opts: Opts = {}) => ({ kind: 'fk' as const, to: 'extras.status', on_delete: 'PROTECT' as const, limit_to_content_type: true, ...opts }),
  /** Role FK limited to roles enabled for the model. */
  role: (opts: Opts = {}) => ({ kind: 'fk' as const, to: 'extras.role', on_delete: 'PROTECT' as const, limit_to_content_type: true, nullable: true, ...opts }),
  contentTypes: (opts: Opts = {}) => ({ kind: 'content_types' as const, ...opts }),
  contentType: make('content_type'),
  genericFk: (opts: Opts = {}) => ({ kind: 'generic_fk' as const, read_only: true, nullable: true, ...opts }),
  /** Derived count of `model` rows whose `field` references this object. */
  count: (model: string, field: string, opts: Opts = {}) => ({ kind: 'count' as const, read_only: true, count: { model, field }, ...opts }),
  treeDepth: () => ({ kind: 'tree_depth' as const, read_only: true }),
  /** MAC address, stored as `AA:BB:CC:DD:EE:FF` or empty (core/fields/mac.ts). */
  macAddress: (opts: Opts = {}) => ({ kind: 'mac_address' as const, default: '', ...opts }),
  /** IP address held as text, stored as 16 big-endian bytes (core/fields/ip.ts). */
  ipAddress: make('ip_address'),
  /**
   * Hidden natural-order key of the text field `from` (the reference's `_name`), kept by the store.
   * @example _name: f.naturalOrder('name', 'interface')
   */
  naturalOrder: (from: string, style: NaturalStyle = 'natural', max_length = 255): AuthoredField => ({
    kind: 'string', hidden: true, read_only: true, nullable: true, no_filter: true, max_length, naturalize: { from, style },
  }),
  /** Read-time value from an app extension's computed loader (ops/extensions.ts); read-only unless `read_only: false`. */
  computed: (opts: Opts = {}) => ({ kind: 'computed' as const, read_only: true, no_filter: true, ...opts }),
};

/** Declares one model; the registry resolves and freezes it at start-up. */
export function defineModel(model: AuthoredModel): AuthoredModel {
  return model;
}
