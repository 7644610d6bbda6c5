import { randomUUID } from 'node:crypto';
import { toRowId } from '../../core/registry/row-id.js';
import { newRowId } from '../../db/schema/id-sequences.js';
import type { ResolvedField, ResolvedModel, Row } from '../../core/registry/types.js';
import type { ReferenceResolver } from '../references/resolve-reference.js';
import type { Services } from '../services.js';

/** One object of a write, parsed: its full row, the to-many links to set, and field errors. */
export type ItemPlan = {
  input: Record<string, unknown>;
  before?: Row;
  row: Row;
  /** Field name -> ids (or content-type labels) replacing the current links. */
  links: Map<string, string[]>;
  errors: Record<string, string[]>;
};

/** Fields a client may write: not read-only, derived, hidden, generic, or a registry-rendered key. */
export function isWritable(field: ResolvedField): boolean {
  if (field.read_only || field.hidden || field.behaviour.derived || field.behaviour.relation === 'generic') return false;
  if (field.common) return ['id', 'tags', 'custom_fields', 'relationships'].includes(field.name);
  return true;
}

/** Value for an omitted, non-required field on create. */
function defaultValue(field: ResolvedField): unknown {
  if (typeof field.default === 'function') return (field.default as () => unknown)();
  // Objects and lists are copied (each row gets its own); a primitive is its own copy.
  if (field.default !== null && typeof field.default === 'object') return structuredClone(field.default);
  if (field.default !== undefined) return field.default;
  if (field.nullable) return null;
  if (field.behaviour.storage === 'text' && field.kind !== 'content_type' && field.kind !== 'date' && field.kind !== 'datetime') return '';
  if (field.kind === 'boolean') return false;
  if (field.kind === 'json') return {};
  return null;
}

type ParseCtx = { services: Services; model: ResolvedModel; resolver: ReferenceResolver };

async function parseToMany(ctx: ParseCtx, field: ResolvedField, value: unknown): Promise<{ ids?: string[]; error?: string }> {
  if (!Array.isArray(value)) return { error: `Expected a list of items but got type "${value === null ? 'NoneType' : typeof value === 'string' ? 'str' : 'dict'}".` };
  if (field.behaviour.relation === 'content_types') {
    const bad = value.find((v) => typeof v !== 'string' || !ctx.services.registry.find(v));
    return bad !== undefined ? { error: `Invalid content type: ${String(bad)}` } : { ids: value as string[] };
  }
  const ids: string[] = [];
  for (const item of value) {
    const resolved = await ctx.resolver.resolve(field, item);
    if (!resolved.ok) return { error: resolved.error };
    if (resolved.id) ids.push(resolved.id);
  }
  return { ids };
}

/** Scalar, content-type and null values parse without the database. */
function parseLocal(ctx: ParseCtx, field: ResolvedField, value: unknown): { value?: unknown; error?: string } {
  if (value === null) {
    if (field.nullable) return { value: null };
    return field.behaviour.nullInput === undefined ? { error: 'This field may not be null.' } : { value: field.behaviour.nullInput };
  }
  if (field.behaviour.relation === 'content_type') {
    return typeof value === 'string' && ctx.services.registry.find(value) ? { value } : { error: `Invalid content type: ${String(value)}` };
  }
  const parsed = field.behaviour.parse(value, field);
  return parsed.ok ? { value: parsed.value } : { error: parsed.error };
}

async function applyFk(ctx: ParseCtx, plan: ItemPlan, field: ResolvedField, value: unknown): Promise<void> {
  const resolved = await ctx.resolver.resolve(field, value);
  setParsed(plan, field, resolved.ok ? { value: resolved.id } : { error: resolved.error });
}

async function applyToMany(ctx: ParseCtx, plan: ItemPlan, field: ResolvedField, value: unknown): Promise<void> {
  const parsed = await parseToMany(ctx, field, value);
  if (parsed.error) plan.errors[field.name] = [parsed.error];
  else if (field.required && parsed.ids?.length === 0) plan.errors[field.name] = ['This list may not be empty.'];
  else plan.links.set(field.name, parsed.ids as string[]);
}

function setParsed(plan: ItemPlan, field: ResolvedField, parsed: { value?: unknown; error?: string }): void {
  if (parsed.error) plan.errors[field.name] = [parsed.error];
  else if (field.column) plan.row[field.column] = parsed.value;
}

/** Applies one field of the input; returns a promise only when a related object must be looked up. */
function applyField(ctx: ParseCtx, plan: ItemPlan, field: ResolvedField, partial: boolean): Promise<void> | undefined {
  const present = Object.prototype.hasOwnProperty.call(plan.input, field.name);
  const toMany = field.behaviour.relation === 'm2m' || field.behaviour.relation === 'content_types';
  if (!present) {
    if (plan.before) {
      if (!partial && field.required) plan.errors[field.name] = ['This field is required.'];
      return undefined;
    }
    if (field.required) plan.errors[field.name] = ['This field is required.'];
    else if (toMany) plan.links.set(field.name, []);
    else if (field.column) plan.row[field.column] = defaultValue(field);
    return undefined;
  }
  const value = plan.input[field.name];
  if (toMany) return applyToMany(ctx, plan, field, value);
  if (field.behaviour.relation === 'fk' && value !== null) return applyFk(ctx, plan, field, value);
  setParsed(plan, field, parseLocal(ctx, field, value));
  return undefined;
}

const parsedFields = new WeakMap<ResolvedModel, ResolvedField[]>();

/** The fields `buildItem` parses, in order: the writable ones but id and those an extension reads (custom fields, relationships). */
function fieldsToParse(model: ResolvedModel): ResolvedField[] {
  let fields = parsedFields.get(model);
  if (!fields) {
    fields = model.fields.filter((field) => isWritable(field) && field.name !== 'id' && field.name !== 'custom_fields' && field.name !== 'relationships');
    parsedFields.set(model, fields);
  }
  return fields;
}

/** Parses one input object against the model: create (no `before`), PUT or PATCH (`partial`). */
export async function buildItem(ctx: ParseCtx, input: Record<string, unknown>, opts: { before?: Row; partial: boolean }): Promise<ItemPlan> {
  const row = { ...(opts.before ?? {}) } as Row;
  const plan: ItemPlan = { input, before: opts.before, row, links: new Map(), errors: {} };
  for (const field of fieldsToParse(ctx.model)) {
    const pending = applyField(ctx, plan, field, opts.partial);
    if (pending) await pending;
  }
  if (!opts.before) {
    const idField = ctx.model.fieldMap.get('id') as ResolvedField;
    const given = input.id === undefined || !isWritable(idField) ? await newRowId(ctx.resolver.exec, ctx.model) : toRowId(ctx.model, input.id);
    if (!given) plan.errors.id = ['Must be a valid UUID.'];
    row.id = given ?? randomUUID();
    if (ctx.model.fieldMap.has('custom_fields')) row._custom_field_data = {};
  }
  return plan;
}
