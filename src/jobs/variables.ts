import { parseIp } from '../core/ip/index.js';
import { regexSearch } from '../core/regex.js';
import { isUpload } from './uploads.js';
import type { VariableSpec, VariableType } from './contract.js';

/** Finds the objects of `model` matching `filters` that `refs` name (ids, or natural keys where the model has them): ref -> id. */
export type ObjectLookup = (model: string, refs: string[], filters: Record<string, unknown> | undefined) => Promise<Map<string, string>>;

/** A value as the job receives it once cleaned, or the form's messages. */
type Clean = { value: unknown } | { errors: string[] };

const REQUIRED = 'This field is required.';

/** Whether the reference's form treats the value as empty (`None`, `''`, `[]`, `{}`). */
function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)
    || (typeof value === 'object' && !Array.isArray(value) && Object.keys(value as object).length === 0);
}

function toText(value: unknown): string {
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function cleanString(spec: VariableSpec, value: unknown): Clean {
  const text = toText(value).trim();
  const errors: string[] = [];
  if (spec.max_length && text.length > spec.max_length) errors.push(`Ensure this value has at most ${spec.max_length} characters (it has ${text.length}).`);
  if (spec.min_length && text.length < spec.min_length) errors.push(`Ensure this value has at least ${spec.min_length} characters (it has ${text.length}).`);
  if (spec.regex && !regexSearch(spec.regex, text)) errors.push(`Invalid value. Must match regex: ${spec.regex}`);
  return errors.length > 0 ? { errors } : { value: text };
}

function cleanInteger(spec: VariableSpec, value: unknown): Clean {
  const n = typeof value === 'number' ? value : /^\s*[-+]?\d+(\.0*)?\s*$/.test(String(value)) ? Number(String(value)) : NaN;
  if (!Number.isInteger(n)) return { errors: ['Enter a whole number.'] };
  if (spec.max_value && n > spec.max_value) return { errors: [`Ensure this value is less than or equal to ${spec.max_value}.`] };
  if (spec.min_value && n < spec.min_value) return { errors: [`Ensure this value is greater than or equal to ${spec.min_value}.`] };
  return { value: n };
}

/** Django's BooleanField: 'false', '0' and falsy values are false. */
function toBoolean(value: unknown): boolean {
  if (typeof value === 'string' && ['false', '0'].includes(value.toLowerCase())) return false;
  return Boolean(value);
}

function choiceValues(spec: VariableSpec): Set<string> {
  return new Set((spec.choices ?? []).map(([v]) => String(v)));
}

function cleanChoice(spec: VariableSpec, value: unknown): Clean {
  if (!choiceValues(spec).has(toText(value))) return { errors: [`Select a valid choice. ${toText(value)} is not one of the available choices.`] };
  return { value: toText(value) };
}

function cleanMultiChoice(spec: VariableSpec, value: unknown): Clean {
  if (!Array.isArray(value)) return { errors: ['Enter a list of values.'] };
  const bad = value.find((v) => !choiceValues(spec).has(toText(v)));
  if (bad !== undefined) return { errors: [`Select a valid choice. ${toText(bad)} is not one of the available choices.`] };
  return { value: value.map(toText) };
}

function cleanIp(value: unknown, withMask: boolean): Clean {
  const text = toText(value).trim();
  if (withMask && text.split('/').length !== 2) return { errors: ['CIDR mask (e.g. /24) is required.'] };
  if (!withMask && text.includes('/')) return { errors: [`Invalid IPv4/IPv6 address format: ${text}`] };
  const parsed = parseIp(text);
  if (!parsed.ok) return { errors: [withMask ? 'Please specify a valid IPv4 or IPv6 address.' : `Invalid IPv4/IPv6 address format: ${text}`] };
  return { value: text };
}

function cleanJson(value: unknown): Clean {
  if (typeof value !== 'string') return { value };
  try {
    return { value: JSON.parse(value) };
  } catch {
    return { errors: ['Enter a valid JSON.'] };
  }
}

/** An object reference as given: an id (or natural key), or `{id}`. */
function toObjectRef(value: unknown): string | null {
  const raw = value && typeof value === 'object' && !Array.isArray(value) ? (value as { id?: unknown }).id : value;
  return typeof raw === 'string' || typeof raw === 'number' ? String(raw) : null;
}

async function cleanObjects(spec: VariableSpec, value: unknown, many: boolean, lookup: ObjectLookup): Promise<Clean> {
  const given = many ? (Array.isArray(value) ? value : [value]) : [value];
  const refs = given.map(toObjectRef);
  const bad = given.find((_, i) => refs[i] === null);
  if (bad !== undefined) return { errors: [many ? `“${toText(bad)}” is not a valid value.` : 'Select a valid choice. That choice is not one of the available choices.'] };
  const found = await lookup(spec.model ?? '', refs as string[], spec.query_params);
  const missing = refs.find((ref) => !found.has(ref as string));
  if (missing) return { errors: [many ? `Select a valid choice. ${missing} is not one of the available choices.` : 'Select a valid choice. That choice is not one of the available choices.'] };
  const ids = refs.map((ref) => found.get(ref as string) as string);
  return { value: many ? ids : ids[0] };
}

/** How each variable type cleans a non-empty value (the reference's form fields). */
const CLEANERS: Record<VariableType, (spec: VariableSpec, value: unknown, lookup: ObjectLookup) => Clean | Promise<Clean>> = {
  StringVar: cleanString,
  TextVar: cleanString,
  IntegerVar: cleanInteger,
  BooleanVar: (_spec, value) => ({ value: toBoolean(value) }),
  DryRunVar: (_spec, value) => ({ value: toBoolean(value) }),
  ChoiceVar: cleanChoice,
  MultiChoiceVar: cleanMultiChoice,
  ObjectVar: (spec, value, lookup) => cleanObjects(spec, value, false, lookup),
  MultiObjectVar: (spec, value, lookup) => cleanObjects(spec, value, true, lookup),
  IPAddressVar: (_spec, value) => cleanIp(value, false),
  IPAddressWithMaskVar: (_spec, value) => cleanIp(value, true),
  IPNetworkVar: (_spec, value) => cleanIp(value, true),
  JSONVar: (_spec, value) => cleanJson(value),
  FileVar: (_spec, value) => (isUpload(value) ? { value } : { errors: ['No file was submitted. Check the encoding type on the form.'] }),
};

export const VARIABLE_TYPES = new Set(Object.keys(CLEANERS));

/** Boolean variables are never required (a checkbox), as the reference forces. */
export function isRequired(spec: VariableSpec): boolean {
  if (spec.type === 'BooleanVar' || spec.type === 'DryRunVar') return false;
  return spec.required ?? true;
}

/** The default a variable shows and takes when absent (a DryRunVar takes the job's `dryrun_default`). */
export function defaultOf(spec: VariableSpec, dryrunDefault: boolean): unknown {
  return spec.type === 'DryRunVar' ? dryrunDefault : spec.default;
}

/**
 * Validates job input as the reference's `validate_data`: an unknown key is refused first, then
 * every variable is cleaned by its form field. Returns the cleaned data (objects as ids, ready
 * to store) or the errors by variable name.
 */
export async function validateJobData(variables: Record<string, VariableSpec>, data: Record<string, unknown>, opts: { dryrunDefault: boolean; lookup: ObjectLookup }): Promise<{ data: Record<string, unknown> } | { errors: Record<string, string[]> }> {
  const unknown = Object.keys(data).find((k) => !(k in variables));
  if (unknown !== undefined) return { errors: { [unknown]: ['Job data contained an unknown property'] } };
  const errors: Record<string, string[]> = {};
  const cleaned: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(variables)) {
    const given = name in data ? data[name] : undefined;
    if (isEmpty(given) && !(spec.type === 'BooleanVar' || spec.type === 'DryRunVar')) {
      if (isRequired(spec)) errors[name] = [REQUIRED];
      else cleaned[name] = spec.type === 'MultiChoiceVar' || spec.type === 'MultiObjectVar' ? [] : null;
      continue;
    }
    const result = await CLEANERS[spec.type](spec, given ?? false, opts.lookup);
    if ('errors' in result) errors[name] = result.errors;
    else cleaned[name] = result.value;
  }
  return Object.keys(errors).length > 0 ? { errors } : { data: cleaned };
}

/** One variable as `GET /api/extras/jobs/{id}/variables/` describes it (reference JobViewSet.variables). */
export function describeVariable(name: string, spec: VariableSpec, dryrunDefault: boolean): Record<string, unknown> {
  const entry: Record<string, unknown> = { name, type: spec.type };
  const description = spec.type === 'DryRunVar' ? spec.description ?? 'Check to run job in dryrun mode.' : spec.description;
  if (spec.label) entry.label = spec.label;
  if (description) entry.help_text = description;
  entry.required = isRequired(spec);
  if (spec.type === 'StringVar' || spec.type === 'TextVar') {
    if (spec.min_length) entry.min_length = spec.min_length;
    if (spec.max_length) entry.max_length = spec.max_length;
  }
  if (spec.type === 'IntegerVar') {
    if (spec.min_value) entry.min_value = spec.min_value;
    if (spec.max_value) entry.max_value = spec.max_value;
  }
  if (spec.type === 'ChoiceVar' || spec.type === 'MultiChoiceVar') entry.choices = spec.choices ?? [];
  const initial = defaultOf(spec, dryrunDefault);
  if (initial !== undefined && initial !== null) entry.default = initial;
  if (spec.type === 'ObjectVar' || spec.type === 'MultiObjectVar') entry.model = spec.model;
  return entry;
}
