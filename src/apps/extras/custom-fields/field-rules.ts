import { regexError, regexSearch } from '../../../core/regex.js';
import { MIN_MAX_TYPES, REGEX_TYPES, checkCustomValue, keyError, toKey } from './values.js';
import { toDef } from './definitions.js';
import type { Row, RuleContext, SaveContext } from '../../../core/registry/types.js';

/** before_save of custom fields, computed fields and relationships: the key defaults to the slugified label. */
export function deriveKey({ row }: SaveContext): void {
  if (!row.key) row.key = toKey(String(row.label ?? ''));
}

/** Key is a Python/GraphQL identifier (catalogue customfield, relationship, computedfield rules). */
export function keyIsIdentifier({ row }: RuleContext): Record<string, string> | void {
  const error = row.key ? keyError(String(row.key)) : undefined;
  if (error) return { key: error };
}

/** Key and type are fixed once the custom field exists. */
export function keyAndTypeFixed({ row, before }: RuleContext): Record<string, string> | void {
  if (before && before.key !== row.key) return { key: 'Key cannot be changed once created' };
  if (before && before.type !== row.type) return { type: 'Type cannot be changed once created' };
}


/** Minimum, maximum and regex only on the types that use them; the regex must compile. */
export function validationFitsType({ row }: RuleContext): Record<string, string> | void {
  const type = String(row.type);
  if (row.validation_minimum !== null && row.validation_minimum !== undefined && !MIN_MAX_TYPES.has(type)) return { validation_minimum: 'A minimum value may not be set for fields of this type' };
  if (row.validation_maximum !== null && row.validation_maximum !== undefined && !MIN_MAX_TYPES.has(type)) return { validation_maximum: 'A maximum value may not be set for fields of this type' };
  if (row.validation_regex && !REGEX_TYPES.has(type)) return { validation_regex: 'Regular expression validation is not supported for fields of this type' };
  // Checked on RE2 (core/regex.ts), the engine values are checked with: linear time, no backreferences or lookaround.
  const problem = row.validation_regex ? regexError(String(row.validation_regex)) : null;
  if (problem) return { validation_regex: `"${String(row.validation_regex)}" is not a valid regular expression. ${problem}` };
}

/** A default must itself be a valid value; a select default must be one of the field's choices. */
export async function defaultIsValid({ row, find }: RuleContext): Promise<Record<string, string> | void> {
  if (row.default === null || row.default === undefined) return;
  const def = toDef(row);
  const choices = await find('extras.customfieldchoice', { custom_field_id: row.id });
  def.choices = choices.map((c: Row) => String(c.value));
  if (def.type === 'select' && def.default && !def.choices.includes(String(def.default))) {
    return { default: `The specified default value (${String(def.default)}) is not listed as an available choice.` };
  }
  const checked = checkCustomValue({ ...def, required: false }, row.default);
  if (!checked.ok) return { default: `Invalid default value "${typeof row.default === 'string' ? row.default : JSON.stringify(row.default)}": ${checked.error}` };
  row.default = checked.value;
}

/** Custom field choice rules: only for selection fields, and within the field's length and regex limits. */
export async function choiceFitsField({ row, get }: RuleContext): Promise<Record<string, string> | void> {
  const field = await get('extras.customfield', row.custom_field_id);
  if (!field) return;
  if (field.type !== 'select' && field.type !== 'multi-select') return { __all__: 'Custom field choices can only be assigned to selection fields.' };
  const value = String(row.value ?? '');
  const min = field.validation_minimum as number | null;
  const max = field.validation_maximum as number | null;
  if (min !== null && min !== undefined && value.length < min) return { __all__: `Value must be at least ${min} characters long.` };
  if (max !== null && max !== undefined && value.length > max) return { __all__: `Value must not exceed ${max} characters long.` };
  if (field.validation_regex && regexError(String(field.validation_regex)) === null && !regexSearch(String(field.validation_regex), value)) {
    return { __all__: `Value must match regex ${String(field.validation_regex)} got ${value}.` };
  }
}
