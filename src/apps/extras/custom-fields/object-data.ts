import { loadCustomFields, loadKeysByModel } from './definitions.js';
import { checkCustomValue } from './values.js';
import type { Exec } from '../../../db/store.js';
import type { ComputedLoader, WriteHookContext } from '../../../ops/extensions.js';
import type { SerializeOptions } from '../../../ops/serialize/plan.js';
import type { Services } from '../../../ops/services.js';
import type { ItemPlan } from '../../../ops/write/build-item.js';
import type { CustomFieldDef } from './definitions.js';

type Data = Record<string, unknown>;

function isObject(value: unknown): value is Data {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A default value for one object: lists and dicts copied (each object gets its own), a scalar as it is (structuredClone costs per call). */
function copyDefault(value: unknown): unknown {
  return value !== null && typeof value === 'object' ? structuredClone(value) : value;
}

/** Starting data: the stored data on update; on create the defaults when the key is omitted. */
function startingData(plan: ItemPlan, defs: CustomFieldDef[]): Data {
  if (plan.before) return { ...((plan.before._custom_field_data as Data | null) ?? {}) };
  if (plan.input.custom_fields === undefined) return Object.fromEntries(defs.map((d) => [d.key, copyDefault(d.default ?? null)]));
  return {};
}

/**
 * Merges an object's `custom_fields` input over its data (unknown keys dropped), checks every
 * value, fills defaults and rejects missing required fields, as the reference's model clean().
 */
function applyCustomFields(plan: ItemPlan, defs: CustomFieldDef[], known: ReadonlyMap<string, CustomFieldDef>): void {
  const given = plan.input.custom_fields;
  if (given !== undefined && !isObject(given)) {
    plan.errors.custom_fields = [`Expected a dictionary of items but got type "${Array.isArray(given) ? 'list' : given === null ? 'NoneType' : typeof given === 'string' ? 'str' : typeof given}".`];
    return;
  }
  const data = startingData(plan, defs);
  for (const [key, value] of Object.entries(given ?? {})) if (known.has(key)) data[key] = value;
  const errors: string[] = [];
  for (const [key, value] of Object.entries(data)) {
    const def = known.get(key);
    if (!def) continue;
    const checked = checkCustomValue(def, value);
    if (checked.ok) data[key] = checked.value;
    else errors.push(`Invalid value for custom field '${key}': ${checked.error}`);
  }
  for (const def of defs) {
    if (def.key in data) continue;
    if (def.default !== null) data[def.key] = copyDefault(def.default);
    else if (def.required) errors.push(`Missing required custom field '${def.key}'.`);
    else data[def.key] = null;
  }
  if (errors.length > 0) plan.errors.__all__ = [...(plan.errors.__all__ ?? []), ...errors];
  plan.row._custom_field_data = data;
}


/** `*` parseInput: custom field values of every object written (one or two queries per request). */
export async function parseCustomFieldInput(ctx: WriteHookContext): Promise<void> {
  if (!ctx.model.fieldMap.has('custom_fields')) return;
  const defs = await loadCustomFields(ctx.services, ctx.exec, ctx.model.id);
  const known = new Map(defs.map((d) => [d.key, d]));
  for (const plan of ctx.plans) applyCustomFields(plan, defs, known);
}

/** Per serialization, the custom field keys of every model (loaded once, whatever the models rendered). */
const keyCache = new WeakMap<SerializeOptions, Promise<Map<string, string[]>>>();

function keysFor(services: Services, exec: Exec, opts: SerializeOptions): Promise<Map<string, string[]>> {
  let keys = keyCache.get(opts);
  if (!keys) {
    keys = loadKeysByModel(services, exec, opts.generation);
    keyCache.set(opts, keys);
  }
  return keys;
}

/** `custom_fields` on read: every key of the model's custom fields, null when unset (api-behaviour.md section 8). */
export const renderCustomFields: ComputedLoader = async ({ services, exec, model, rows, opts }) => {
  const keys = (await keysFor(services, exec, opts)).get(model.id) ?? NO_KEYS;
  const pick = pickerOf(keys);
  return new Map(rows.map((row) => [row.id, pick((row._custom_field_data as Data | null) ?? {})]));
};

/** The key list of a model without custom fields (one array, so its picker is compiled once). */
const NO_KEYS: readonly string[] = [];

/** A model's custom field values of one object's data, every key in order, null when unset. */
type Picker = (data: Data) => Data;
/** Pickers by key list (the lists are kept per write generation: a new generation compiles anew). */
const pickers = new WeakMap<readonly string[], Picker>();

/**
 * `renderCustomFields`' object builder, compiled once per key list: an object literal instead of
 * Object.fromEntries of a list of pairs per row (every related row rendered in full gets one).
 * Computed keys, so a `__proto__` key is an own property as fromEntries makes it.
 */
function pickerOf(keys: readonly string[]): Picker {
  let pick = pickers.get(keys);
  if (!pick) {
    const entries = keys.map((k) => `[${JSON.stringify(k)}]: d[${JSON.stringify(k)}] ?? null`);
    pick = new Function('d', `return {${entries.join(', ')}};`) as Picker;
    pickers.set(keys, pick);
  }
  return pick;
}
