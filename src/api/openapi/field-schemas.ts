import type { FieldKind, ResolvedField } from '../../core/registry/types.js';

/** An OpenAPI 3.0 Schema Object (loosely typed: the document is plain JSON). */
export type Schema = Record<string, unknown>;

/** `$ref` to a component schema. */
export function ref(name: string): Schema {
  return { $ref: `#/components/schemas/${name}` };
}

/** How one field kind appears in a response and in a request body. */
type KindSchema = { read(field: ResolvedField): Schema; write(field: ResolvedField): Schema };

function text(field: ResolvedField, extra: Schema = {}): Schema {
  const out: Schema = { type: 'string', ...extra };
  if (field.max_length !== undefined) out.maxLength = field.max_length;
  if (field.min_length !== undefined) out.minLength = field.min_length;
  if (field.common && field.name.endsWith('url')) out.format = 'uri';
  return out;
}

function number(type: 'integer' | 'number', format?: string) {
  return (field: ResolvedField): Schema => {
    const out: Schema = { type, ...(format ? { format } : {}) };
    if (field.min_value !== undefined) out.minimum = field.min_value;
    if (field.max_value !== undefined) out.maximum = field.max_value;
    return out;
  };
}

/** `enum` of a choice field's values, typed after them. */
export function choiceValues(field: ResolvedField): Schema {
  const values = (field.choices ?? []).map(([v]) => v);
  const type = values.length > 0 && values.every((v) => typeof v === 'number') ? 'integer' : 'string';
  return { type, enum: values };
}

function choiceRead(field: ResolvedField): Schema {
  if (field.render_as === 'value') return choiceValues(field);
  const labels = (field.choices ?? []).map(([, l]) => l);
  return { type: 'object', properties: { value: choiceValues(field), label: { type: 'string', enum: labels } }, required: ['value', 'label'] };
}

const same = (schema: (field: ResolvedField) => Schema): KindSchema => ({ read: schema, write: schema });
const fixed = (schema: Schema): KindSchema => same(() => ({ ...schema }));
const relatedWrite = (): Schema => ref('RelatedObjectRequest');

/**
 * Field kind -> schemas, one entry per kind (STYLE.md section 8.2). Related objects render as
 * `ObjectReference` (or the full object at depth > 0) and are written as a UUID, URL,
 * composite key or attribute dictionary (`RelatedObjectRequest`).
 */
export const KIND_SCHEMAS: Readonly<Record<FieldKind, KindSchema>> = {
  string: same((f) => text(f)),
  text: same((f) => text(f)),
  password: same((f) => text(f, { format: 'password' })),
  color: same((f) => text(f, { pattern: '^[0-9a-f]{6}$' })),
  email: same((f) => text(f, { format: 'email' })),
  url: same((f) => text(f, { format: 'uri' })),
  slug: same((f) => text(f, { pattern: '^[-a-zA-Z0-9_]+$' })),
  time_zone: same((f) => text(f)),
  integer: same(number('integer')),
  positive_integer: same(number('integer')),
  big_integer: same(number('integer', 'int64')),
  float: same(number('number', 'double')),
  decimal: same((f) => ({ type: 'string', format: 'decimal', ...(f.max_digits ? { description: `Up to ${f.max_digits} digits, ${f.decimal_places ?? 0} after the point.` } : {}) })),
  boolean: fixed({ type: 'boolean' }),
  date: fixed({ type: 'string', format: 'date' }),
  datetime: fixed({ type: 'string', format: 'date-time' }),
  json: fixed({}),
  json_document: fixed({}),
  uuid: fixed({ type: 'string', format: 'uuid' }),
  auto_id: fixed({ type: 'integer', minimum: 1 }),
  choice: { read: choiceRead, write: choiceValues },
  fk: { read: () => ref('ObjectReference'), write: relatedWrite },
  m2m: { read: () => ({ type: 'array', items: ref('ObjectReference') }), write: () => ({ type: 'array', items: relatedWrite() }) },
  content_types: fixed({ type: 'array', items: { type: 'string', pattern: '^[a-z0-9_]+\\.[a-z0-9_]+$' } }),
  content_type: fixed({ type: 'string', pattern: '^[a-z0-9_]+\\.[a-z0-9_]+$' }),
  generic_fk: { read: () => ref('ObjectReference'), write: relatedWrite },
  count: fixed({ type: 'integer', minimum: 0 }),
  tree_depth: fixed({ type: 'integer', minimum: 0 }),
  computed: fixed({}),
  ip_address: fixed({ type: 'string', format: 'ip' }),
  // Read as null when empty; written as any EUI-48 text, empty or null.
  mac_address: { read: () => ({ type: 'string', nullable: true }), write: () => ({ type: 'string', maxLength: 18, nullable: true }) },
};

/** Wraps a schema for a nullable field (`allOf` keeps `$ref` siblings valid in OpenAPI 3.0). */
function nullable(schema: Schema): Schema {
  if ('$ref' in schema) return { allOf: [schema], nullable: true };
  return { ...schema, nullable: true };
}

/** Schema of a field in a response. */
export function toReadSchema(field: ResolvedField): Schema {
  let schema = KIND_SCHEMAS[field.kind].read(field);
  if (field.nullable || field.kind === 'generic_fk') schema = nullable(schema);
  if (field.read_only || field.behaviour.derived) schema = '$ref' in schema ? { allOf: [schema], readOnly: true } : { ...schema, readOnly: true };
  return field.help_text ? { ...schema, description: field.help_text } : schema;
}

/** Schema of a field in a request body. */
export function toWriteSchema(field: ResolvedField): Schema {
  const schema = KIND_SCHEMAS[field.kind].write(field);
  const out = field.nullable ? nullable(schema) : schema;
  return field.help_text ? { ...out, description: field.help_text } : out;
}
