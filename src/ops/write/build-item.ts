import { randomUUID } from 'node:crypto';
import { toRowId } from '../../core/registry/row-id.js';
import { freeRowId, newRowId } from '../../db/schema/id-sequences.js';
import type { ResolvedField, ResolvedModel, Row } from '../../core/registry/types.js';
import type { ReferenceResolver, Resolved } from '../references/resolve-reference.js';
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

type ToMany = { ids?: string[]; error?: string };

/** A to-many value parsed: at once when every member's answer is known (`cached`), else a promise. */
function parseToMany(ctx: ParseCtx, field: ResolvedField, value: unknown): ToMany | Promise<ToMany> {
  if (!Array.isArray(value)) return { error: `Expected a list of items but got type "${value === null ? 'NoneType' : typeof value === 'string' ? 'str' : 'dict'}".` };
  if (field.behaviour.relation === 'content_types') {
    const bad = value.find((v) => typeof v !== 'string' || !ctx.services.registry.find(v));
    return bad !== undefined ? { error: `Invalid content type: ${String(bad)}` } : { ids: value as string[] };
  }
  const ids: string[] = [];
  for (let i = 0; i < value.length; i += 1) {
    const resolved = ctx.resolver.cached(field, value[i]);
    if (!resolved) return resolveToMany(ctx, field, value, i, ids);
    if (!resolved.ok) return { error: resolved.error };
    if (resolved.id) ids.push(resolved.id);
  }
  return { ids };
}

/** `parseToMany` from member `from` on, looking each up. */
async function resolveToMany(ctx: ParseCtx, field: ResolvedField, value: unknown[], from: number, ids: string[]): Promise<ToMany> {
  for (const item of value.slice(from)) {
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

/** Sets an FK from its reference: at once when the answer is known, else once it is looked up. */
function applyFk(ctx: ParseCtx, plan: ItemPlan, field: ResolvedField, value: unknown): Promise<void> | undefined {
  const known = ctx.resolver.cached(field, value);
  if (known) return void setResolved(plan, field, known);
  return ctx.resolver.resolve(field, value).then((resolved) => setResolved(plan, field, resolved));
}

function setResolved(plan: ItemPlan, field: ResolvedField, resolved: Resolved): void {
  setParsed(plan, field, resolved.ok ? { value: resolved.id } : { error: resolved.error });
}

function applyToMany(ctx: ParseCtx, plan: ItemPlan, field: ResolvedField, value: unknown): Promise<void> | undefined {
  const parsed = parseToMany(ctx, field, value);
  if (parsed instanceof Promise) return parsed.then((p) => setToMany(plan, field, p));
  setToMany(plan, field, parsed);
  return undefined;
}

function setToMany(plan: ItemPlan, field: ResolvedField, parsed: ToMany): void {
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

/**
 * Parses one input object against the model: create (no `before`), PUT or PATCH (`partial`).
 * Returns the plan at once when nothing had to be looked up (a bulk write's objects mostly name
 * related objects already resolved for an earlier one), else a promise of it.
 */
export function buildItem(ctx: ParseCtx, input: Record<string, unknown>, opts: { before?: Row; partial: boolean }): ItemPlan | Promise<ItemPlan> {
  const row = { ...(opts.before ?? {}) } as Row;
  const plan: ItemPlan = { input, before: opts.before, row, links: new Map(), errors: {} };
  const fields = fieldsToParse(ctx.model);
  for (let i = 0; i < fields.length; i += 1) {
    const pending = applyField(ctx, plan, fields[i], opts.partial);
    if (pending) return finishLater(ctx, plan, pending, fields.slice(i + 1), opts);
  }
  return finishItem(ctx, plan, opts);
}

/** The rest of `buildItem` once a look-up is under way. */
async function finishLater(ctx: ParseCtx, plan: ItemPlan, pending: Promise<void>, rest: ResolvedField[], opts: { before?: Row; partial: boolean }): Promise<ItemPlan> {
  await pending;
  for (const field of rest) {
    const next = applyField(ctx, plan, field, opts.partial);
    if (next) await next;
  }
  return finishItem(ctx, plan, opts);
}

/** A created object's id (given, or new) and empty custom data. */
function finishItem(ctx: ParseCtx, plan: ItemPlan, opts: { before?: Row }): ItemPlan | Promise<ItemPlan> {
  if (opts.before) return plan;
  const idField = ctx.model.fieldMap.get('id') as ResolvedField;
  if (plan.input.id === undefined || !isWritable(idField)) {
    const free = freeRowId(ctx.model);
    if (free === undefined) return newRowId(ctx.resolver.exec, ctx.model).then((id) => setId(ctx, plan, id));
    return setId(ctx, plan, free);
  }
  return setId(ctx, plan, toRowId(ctx.model, plan.input.id));
}

function setId(ctx: ParseCtx, plan: ItemPlan, given: string | null | undefined): ItemPlan {
  if (!given) plan.errors.id = ['Must be a valid UUID.'];
  plan.row.id = given ?? randomUUID();
  if (ctx.model.fieldMap.has('custom_fields')) plan.row._custom_field_data = {};
  return plan;
}
