import type { KindBehaviour } from '../fields/kind.js';
import type { NaturalStyle } from '../natural-order.js';
import type { Config } from '../config.js';

export type FieldKind =
  | 'string' | 'text' | 'color' | 'email' | 'url' | 'slug' | 'time_zone' | 'password'
  | 'integer' | 'positive_integer' | 'big_integer' | 'decimal' | 'float'
  | 'boolean' | 'date' | 'datetime' | 'json' | 'json_document' | 'uuid' | 'choice'
  | 'fk' | 'm2m' | 'content_types' | 'content_type' | 'generic_fk'
  | 'count' | 'tree_depth' | 'computed' | 'ip_address' | 'mac_address' | 'auto_id';

export type OnDelete = 'CASCADE' | 'PROTECT' | 'SET_NULL';

/** A choice set: ordered `[value, label]` pairs. */
export type ChoiceSet = readonly (readonly [string | number, string])[];

/** One field as authored in a model declaration. */
export type AuthoredField = {
  kind: FieldKind;
  /** OPTIONS label; defaults to the name with underscores as spaces, first letter capitalised. */
  label?: string;
  required?: boolean;
  nullable?: boolean;
  /** Empty string allowed (string kinds). Defaults to `!required`. */
  blank?: boolean;
  /** Value on create when omitted; a function is called per object. */
  default?: unknown;
  unique?: boolean;
  read_only?: boolean;
  /** Accepted on write, never rendered (passwords). */
  write_only?: boolean;
  max_length?: number;
  min_length?: number;
  min_value?: number;
  max_value?: number;
  max_digits?: number;
  decimal_places?: number;
  choices?: ChoiceSet;
  /** How a choice renders: `{value, label}` (default) or the bare value (reference ordinary choice fields). */
  render_as?: 'dict' | 'value';
  /** fk / m2m target `app.model`. */
  to?: string;
  on_delete?: OnDelete;
  /** Only objects whose `content_types` include this model may be referenced (statuses, roles, tags). */
  limit_to_content_type?: boolean;
  /** Tree FK: the filter on it also matches descendants of the given objects. */
  tree_filter?: boolean;
  /**
   * FK: the reference's name for this relation seen from its target (Django `related_name`), so
   * lookup paths may go backwards, e.g. `members__name` from a virtual chassis to its devices.
   */
  related_name?: string;
  /** Derived count: count rows of `model` whose FK `field` points to this object. */
  count?: { model: string; field: string };
  /** OPTIONS `type` override. */
  options_type?: string;
  /** An image field (`options_type: 'image upload'`): the folder under MEDIA_ROOT its uploads are stored in (Django `upload_to`). */
  upload_to?: string;
  /** An image field's columns that hold the stored image's pixel height and width (Django `height_field`/`width_field`). */
  image_size?: Readonly<{ height: string; width: string }>;
  /**
   * A read-only to-many field that lists what an assignment model links to this object: the
   * assignments of `model` whose FK `owner` points here, by their FK `target` (or `id`: the
   * assignments themselves). Kept in step on every write of the assignments (apps/shared/mirrored-fields.ts).
   */
  through?: Readonly<{ model: string; owner: string; target: string }>;
  /** A writable to-many field that is the other end of another model's (`app.model.field`): both hold the same pairs. */
  reverse_of?: string;
  /** OPTIONS `child` of a list or mapping field: how the reference describes one member. */
  options_child?: Readonly<Record<string, unknown>>;
  /** OPTIONS lists no choices for this content-type field (the reference describes it as a bare field). */
  options_no_choices?: boolean;
  /** Not stored in the model table (derived, generic, m2m). Computed from the kind when absent. */
  help_text?: string;
  /** No generated filter for this field. */
  no_filter?: boolean;
  /** For content_types fields: which models may be listed (a registry feature name). */
  content_type_feature?: string;
  /** For content_type(s) fields limited to a fixed list of models rather than a feature (image attachments). */
  content_type_models?: readonly string[];
  /** Stored and filterable but never rendered, described or written through the API (set by operations). */
  hidden?: boolean;
  /** Rendered only at the top level (not inside nested objects); counts and tree depth always are. */
  top_level_only?: boolean;
  /**
   * A to-many field rendered inside nested objects too (to-many fields are top-level only
   * otherwise): the reference keeps the ones its serializer declares explicitly, e.g. prefix
   * `vrfs` in an IP address's nested `parent`.
   */
  nested?: boolean;
  /**
   * A hidden column holding the natural-order key of another text field of the same row (the
   * reference's `_name`), kept by the store on every insert and update; orderings name it.
   */
  naturalize?: { from: string; style: NaturalStyle };
  /** Placed after the common trailing fields (the reference lists some to-many fields last, e.g. prefix `vrfs`). */
  after_tail?: boolean;
  /** Rendered only when `?include=<opt_in>` asks on GET (and always on writes), e.g. `config_context`. */
  opt_in?: string;
};

/** Lookups a `q` predicate may use (the reference's `lookup_expr`). */
export type SearchLookup = 'icontains' | 'iexact' | 'exact';

/**
 * How the term is prepared for one `q` predicate (the reference's `preprocessor`): `raw` as given
 * (the default for `icontains`), `strip` without surrounding whitespace (the default otherwise),
 * `int` a whole number and `uuid` a UUID (the predicate is left out when the term is not one).
 */
export type SearchTerm = 'raw' | 'strip' | 'int' | 'uuid';

/**
 * One `q` predicate: an ORM-style path from the model (`name`, `device_type__manufacturer__name`,
 * a reverse relation by its `related_name`, `content_types__model`), a lookup and the term's
 * preparation. A bare path is `icontains` on the term as given.
 */
export type SearchPredicate = string | { path: string; lookup?: SearchLookup; term?: SearchTerm };

/** A `q` predicate with its defaults filled. */
export type ResolvedSearch = Readonly<{ path: string; lookup: SearchLookup; term: SearchTerm }>;

/** Features a model may carry (catalogue `features`). */
export type Feature = 'custom_fields' | 'tags' | 'notes' | 'change_logging' | 'relationships' | 'statuses' | 'roles' | 'locations' | 'timestamps';

export type DisplayFn = (row: Row, ctx: DisplayContext) => string;

/** Row as held in memory: decoded column values keyed by column name, plus `id`. */
export type Row = Record<string, unknown> & { id: string };

/** What a display function may look up: loaded related rows by model id and row id. */
export type DisplayContext = {
  related(modelId: string, id: unknown): Row | undefined;
  ancestors(row: Row): Row[];
  /** Display text of a loaded object of another model, if loaded. */
  display(modelId: string, id: unknown): string | undefined;
  /** A content type (`app_label.model`) as the reference prints one: `<app_label> | <model verbose name>`. */
  contentType(label: unknown): string;
};

/**
 * Which object a model's change records name as related (AuthoredModel `change_related`): the
 * target of the first of `fields` (FK or generic FK names) set on the row; when none is and
 * `via` is given, the related object of the row of this same model reached by following that
 * path of FK fields (e.g. a module bay in a module: the module's own bay's related object).
 */
export type ChangeRelated = { fields: readonly string[]; via?: readonly string[] };

/** Model-level check the registry cannot express (catalogue `clean()` rule). */
export type RuleContext = {
  /** The object after the change (columns). */
  row: Row;
  /** The stored object before the change, or undefined on create. */
  before: Row | undefined;
  /** Helper to read related rows in the same transaction. */
  get(modelId: string, id: unknown): Promise<Row | undefined>;
  /** Rows matching column equality predicates in the same transaction. */
  find(modelId: string, where: Record<string, unknown>): Promise<Row[]>;
  model: ResolvedModel;
  /** The service's settings (e.g. the webhook URL policy). */
  config: Config;
  /** The object's values of to-many field `field` after the change (ids, or content-type labels), in the transaction. */
  links(field: string): Promise<string[]>;
  /** Stored values of to-many field `field` of objects `ids` of `modelId`, in the transaction. */
  linksOf(modelId: string, field: string, ids: string[]): Promise<Map<string, string[]>>;
};
/**
 * The error for a unique-together violation. Sets with a null member are not checked (as the
 * reference's validators) unless `nulls_equal` (e.g. two root locations may not share a name).
 */
export type UniqueMessage = { field: string; message: string | ((row: Row) => string); nulls_equal?: boolean };

/** Input to a model's before_save hook. */
export type SaveContext = {
  row: Row;
  before: Row | undefined;
  /** The raw request object for this item. */
  input: Record<string, unknown>;
  /** Id of the requesting user, if any. */
  userId: string | null;
  username: string | null;
};

/** Returns field errors (field -> message) or nothing. */
/** A model check: field -> message (or messages) for each failure. */
export type Rule = (ctx: RuleContext) => Promise<Record<string, string | string[]> | void> | Record<string, string | string[]> | void;

export type AuthoredModel = {
  app: string;
  model: string;
  verbose_name: string;
  verbose_name_plural: string;
  /** URL segment under /api/<app>/. */
  path: string;
  /** One-line domain definition. */
  doc?: string;
  /** Common fields: primary (tags too), organizational, or plain base. */
  base: 'primary' | 'organizational' | 'base';
  /** Features beyond what `base` implies, or removed with `-name`. */
  features?: string[];
  tree?: boolean;
  fields: Record<string, AuthoredField>;
  natural_key: string[];
  /** A unique field that names the object on a detail path when the key is no id (the reference's `JobByNameViewSet`: `jobs/<name>/`). */
  lookup_field?: string;
  unique_together?: string[][];
  /**
   * Extra (non-unique) indexes by field names, e.g. `[['ip_version', 'network', 'broadcast']]`;
   * also where the reference says `db_index=True` on a column no other index leads with (`name` of
   * components, `dns_name`, `serial`), so an exact filter and its count read the index alone.
   * Created on the next start (migration 1's schema sync, `IF NOT EXISTS`).
   */
  indexes?: string[][];
  ordering: string[];
  /** A field name, or a function of the row. */
  display: string | DisplayFn;
  /** FK fields whose targets the display function reads. */
  display_needs?: string[];
  /**
   * The `q` filter: predicates ORed with `id` (the reference's SearchFilter `filter_predicates`).
   * Absent: `name` when the model has one, else no `q` at all; null: no `q` (an unknown filter).
   * @example search: ['name', 'device__name', { path: 'asn', lookup: 'exact', term: 'int' }]
   */
  search?: SearchPredicate[] | null;
  rules?: Rule[];
  /** Read-only endpoint (e.g. object changes). */
  read_only?: boolean;
  /**
   * Natural-key fields the reference reads through another object, by their path there (an IP
   * address's `namespace` is its parent prefix's: `parent__namespace`); CSV lookup columns name them so.
   */
  natural_key_paths?: Readonly<Record<string, string>>;
  /** Served as a plain DRF viewset in the reference: its answers carry no `API-Version` header (content types). */
  unversioned?: boolean;
  /** Column the reference's `str()` of an object prints where it differs from `display` (tree models print their own name; protected-delete messages use it). */
  str_field?: string;
  /** A read-only endpoint whose objects may still be deleted, one at a time or in bulk (job results, scheduled jobs). */
  deletable?: boolean;
  /**
   * Kept by the service but not served: no list/detail endpoints, API-root entry or OpenAPI
   * paths; still a table and a content type (reference `dcim.cablepath`).
   */
  internal?: boolean;
  /** Fills service-computed columns before validation (password hashing, token keys, owners). */
  before_save?: (ctx: SaveContext) => void | Promise<void>;
  /** Custom 400 error for a unique-together violation, keyed by the set's field names joined with ','. */
  unique_messages?: Record<string, UniqueMessage>;
  /** OPTIONS `description` (viewset docstring). */
  description?: string;
  /** Order of the common trailing keys when the reference differs from the default. */
  tail_order?: string[];
  /**
   * Keys the reference renders first, in this order, when it differs from the default head
   * (`id`, `object_type`, `display`, `url`, `natural_slug`), e.g. templates put `notes_url`
   * right after `natural_slug`, interfaces put `cable_peer_type`/`cable_peer` before it.
   */
  head_order?: string[];
  /** `object_type` when it differs from `<app>.<model>` (e.g. `auth.group` served under users). */
  object_type?: string;
  /** The reference's model class name when the verbose name does not spell it (`IPAddressToInterface`). */
  class_name?: string;
  /**
   * Primary key: a UUID the service (or client) gives (default), or an auto-increment integer
   * the database sequence gives, read-only in the API (reference `auth.group`).
   */
  id_type?: 'uuid' | 'integer';
  /** False when the API cannot create objects (no POST; reference jobs come from installed code). */
  creatable?: boolean;
  /**
   * The related object of this model's change records (reference `to_objectchange`): one FK
   * name, FK names tried in order, or a full rule; none when absent (null in the records).
   */
  change_related?: string | readonly string[] | ChangeRelated;
};

export type ResolvedField = Readonly<AuthoredField & {
  name: string;
  label: string;
  /** Column name, or null when not stored in the model table. */
  column: string | null;
  behaviour: KindBehaviour;
  required: boolean;
  nullable: boolean;
  blank: boolean;
  read_only: boolean;
  /** Common field generated by the registry (id, url, display, ...). */
  common?: boolean;
  /** Opt-in field (computed_fields, relationships). */
  opt_in?: string;
}>;

export type ResolvedModel = Readonly<{
  id: string;
  app: string;
  model: string;
  table: string;
  path: string;
  verbose_name: string;
  verbose_name_plural: string;
  doc?: string;
  description: string;
  features: ReadonlySet<string>;
  tree: boolean;
  /** Every field in output order, common ones included. */
  fields: readonly ResolvedField[];
  fieldMap: ReadonlyMap<string, ResolvedField>;
  /** Stored scalar and FK columns in table order. */
  columns: readonly ResolvedField[];
  natural_key: readonly string[];
  lookup_field?: string;
  unique_together: readonly (readonly string[])[];
  indexes: readonly (readonly string[])[];
  ordering: readonly string[];
  display: string | DisplayFn;
  display_needs: readonly string[];
  /** `q` predicates, `id` first; null when the model has no `q` filter. */
  search: readonly ResolvedSearch[] | null;
  rules: readonly Rule[];
  read_only: boolean;
  deletable: boolean;
  str_field: string | null;
  unversioned: boolean;
  natural_key_paths: Readonly<Record<string, string>>;
  internal: boolean;
  id_type: 'uuid' | 'integer';
  creatable: boolean;
  before_save?: (ctx: SaveContext) => void | Promise<void>;
  unique_messages: Readonly<Record<string, UniqueMessage>>;
  /** Class name used in 404 texts, e.g. `LocationType`. */
  class_name: string;
  /** Related object of change records (AuthoredModel `change_related`), or null for none. */
  change_related: Readonly<{ fields: readonly ResolvedField[]; via: readonly string[] }> | null;
}>;
