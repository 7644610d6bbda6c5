import { regexSearch } from '../../../core/regex.js';
import type { CustomFieldDef } from './definitions.js';

/** A checked value, or the reference's message for it. */
export type Checked = { ok: true; value: unknown } | { ok: false; error: string };

const ok = (value: unknown): Checked => ({ ok: true, value });
const fail = (error: string): Checked => ({ ok: false, error });

/** Types whose values are strings checked by length and regex (catalogue customfield rules). */
const TEXT_TYPES = new Set(['text', 'url', 'markdown']);
/** Types that accept validation_minimum / validation_maximum. */
export const MIN_MAX_TYPES = new Set(['text', 'integer', 'url', 'select', 'multi-select', 'json', 'markdown']);
/** Types that accept validation_regex. */
export const REGEX_TYPES = new Set(['text', 'url', 'select', 'multi-select', 'json', 'markdown']);

const TRUTHY = new Set(['y', 'yes', 't', 'true', 'on', '1']);
const FALSY = new Set(['n', 'no', 'f', 'false', 'off', '0']);


function checkLength(def: CustomFieldDef, text: string): Checked | undefined {
  if (def.validation_minimum !== null && text.length < def.validation_minimum) return fail(`Value must be at least ${def.validation_minimum} characters in length`);
  if (def.validation_maximum !== null && text.length > def.validation_maximum) return fail(`Value must not exceed ${def.validation_maximum} characters in length`);
  if (def.validation_regex && !regexSearch(def.validation_regex, text)) return fail(`Value must match regex '${def.validation_regex}'`);
  return undefined;
}

function checkInteger(def: CustomFieldDef, value: unknown): Checked {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*[-+]?\d+\s*$/.test(value) ? Number(value) : typeof value === 'boolean' ? Number(value) : NaN;
  if (!Number.isInteger(n)) return fail('Value must be an integer.');
  if (def.validation_minimum !== null && n < def.validation_minimum) return fail(`Value must be at least ${def.validation_minimum}`);
  if (def.validation_maximum !== null && n > def.validation_maximum) return fail(`Value must not exceed ${def.validation_maximum}`);
  return ok(n);
}

function checkBoolean(value: unknown): Checked {
  if (typeof value === 'boolean') return ok(value);
  const text = String(value).trim().toLowerCase();
  if (TRUTHY.has(text)) return ok(true);
  if (FALSY.has(text)) return ok(false);
  return fail('Value must be true or false.');
}

function checkDate(value: unknown): Checked {
  const text = typeof value === 'string' ? value : '';
  const time = new Date(`${text}T00:00:00Z`).getTime();
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(time) && new Date(time).toISOString().startsWith(text);
  return valid ? ok(text) : fail('Date values must be in the format YYYY-MM-DD.');
}

function checkSelect(def: CustomFieldDef, value: unknown): Checked {
  if (typeof value === 'string' && def.choices.includes(value)) return ok(value);
  return fail(`Invalid choice (${String(value)}). Available choices are: ${def.choices.join(', ')}`);
}

function checkMultiSelect(def: CustomFieldDef, value: unknown): Checked {
  const list = typeof value === 'string' ? value.split(',') : value;
  if (Array.isArray(list) && list.every((v) => typeof v === 'string' && def.choices.includes(v))) return ok(list);
  return fail(`Invalid choice(s) (${Array.isArray(list) ? `[${list.map((v) => JSON.stringify(v)).join(', ')}]` : String(value)}). Available choices are: ${def.choices.join(', ')}`);
}

function checkJson(def: CustomFieldDef, value: unknown): Checked {
  if (!def.validation_regex && def.validation_minimum === null && def.validation_maximum === null) return ok(value);
  return checkLength(def, JSON.stringify(value)) ?? ok(value);
}

/**
 * Validates one value for a custom field and returns it cleaned (integers as numbers, booleans
 * as booleans, a comma-separated multi-select as a list). Null, '' and [] are "empty": allowed
 * unless the field is required (catalogue customfield rules).
 */
export function checkCustomValue(def: CustomFieldDef, value: unknown): Checked {
  if (value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) {
    return def.required ? fail('Required field cannot be empty.') : ok(value ?? null);
  }
  if (TEXT_TYPES.has(def.type)) {
    if (typeof value !== 'string') return fail('Value must be a string');
    return checkLength(def, value) ?? ok(value);
  }
  switch (def.type) {
    case 'integer': return checkInteger(def, value);
    case 'boolean': return checkBoolean(value);
    case 'date': return checkDate(value);
    case 'select': return checkSelect(def, value);
    case 'multi-select': return checkMultiSelect(def, value);
    case 'json': return checkJson(def, value);
    default: return ok(value);
  }
}

/** The reference's key from a label: slugified, dashes as underscores ("CF Site 1" -> "cf_site_1"). */
export function toKey(label: string): string {
  const slug = label.normalize('NFKD').replace(/[^\x00-\x7f]/g, '').toLowerCase()
    .replace(/[^\w\s-]/g, '').trim().replace(/[-\s]+/g, '-').replace(/^[-_]+|[-_]+$/g, '');
  return slug.replace(/-/g, '_');
}

/** Keys must be usable as Python/GraphQL identifiers (catalogue: customfield, relationship, computedfield). */
export function keyError(key: string): string | undefined {
  return /^[_A-Za-z][_0-9A-Za-z]*$/.test(key) ? undefined : 'This key is not Python/GraphQL safe. Please do not start the key with a digit and do not use hyphens or whitespace';
}
