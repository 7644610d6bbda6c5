import { loadCustomFields, type CustomFieldDef } from '../apps/extras/custom-fields/definitions.js';
import { checkCustomValue } from '../apps/extras/custom-fields/values.js';
import { formValue, formValues, type FormBody } from './form-body.js';
import { html, type Html } from './html.js';
import type { ResolvedModel } from '../core/registry/types.js';
import type { Services } from '../ops/services.js';

type FieldErrors = Record<string, string[]>;

/** The form field of a custom field (the reference's forms name them `cf_<key>`). */
export const cfName = (key: string): string => `cf_${key}`;

/** The custom fields a model's form shows, in display order (none when the model has no custom fields). */
export function formCustomFields(services: Services, model: ResolvedModel): Promise<CustomFieldDef[]> {
  if (!model.fieldMap.has('custom_fields')) return Promise.resolve([]);
  return loadCustomFields(services, services.dialect.db, model.id);
}

const asText = (value: unknown): string => (value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value, null, 2) : String(value));

/** The input of one custom field by its type, holding `value` (as the API renders it, or as posted). */
function input(def: CustomFieldDef, value: unknown, describedBy: string | undefined): Html {
  const id = `id_${cfName(def.key)}`;
  const name = cfName(def.key);
  const aria = html`${describedBy ? html` aria-describedby="${describedBy}" aria-invalid="true"` : ''}${def.required ? html` required` : ''}`;
  const text = asText(value);
  switch (def.type) {
    case 'boolean': {
      const v = value === true || text === 'true' ? 'true' : value === false || text === 'false' ? 'false' : '';
      return html`<select id="${id}" name="${name}"${aria}><option value="">---------</option><option value="true"${v === 'true' ? html` selected` : ''}>Yes</option><option value="false"${v === 'false' ? html` selected` : ''}>No</option></select>`;
    }
    case 'select':
      return html`<select id="${id}" name="${name}"${aria}><option value="">---------</option>${def.choices.map((c) => html`<option value="${c}"${c === text ? html` selected` : ''}>${c}</option>`)}</select>`;
    case 'multi-select': {
      const chosen = new Set((Array.isArray(value) ? value : text ? [text] : []).map(String));
      // The hidden blank tells "none chosen" from "not in the form" (a browser sends nothing for an empty multiple select).
      return html`<input type="hidden" name="${name}" value=""><select id="${id}" name="${name}" multiple${aria}>${def.choices.map((c) => html`<option value="${c}"${chosen.has(c) ? html` selected` : ''}>${c}</option>`)}</select>`;
    }
    case 'json': case 'markdown':
      return html`<textarea id="${id}" name="${name}"${aria}>${text}</textarea>`;
    default: {
      const type = def.type === 'integer' ? 'number' : def.type === 'date' ? 'date' : def.type === 'url' ? 'url' : 'text';
      return html`<input id="${id}" name="${name}" type="${type}" value="${text}"${aria}>`;
    }
  }
}

/** One labelled input per custom field, each with its errors, in a fieldset of their own. */
export function customFieldInputs(defs: CustomFieldDef[], values: Record<string, unknown> | undefined, errors: FieldErrors): Html {
  if (defs.length === 0) return html``;
  const rows = defs.map((def) => {
    const messages = errors[cfName(def.key)];
    const errorId = messages ? `err_${cfName(def.key)}` : undefined;
    const type = html`<div class="help">${def.type}</div>`;
    return html`<div class="field${def.required ? ' required' : ''}${messages ? ' invalid' : ''}"><label for="id_${cfName(def.key)}">${def.label}</label><div>${input(def, values?.[def.key], errorId)}${type}${messages ? html`<div class="error" id="${errorId}" role="alert">${messages.join(' ')}</div>` : ''}</div></div>`;
  });
  return html`<fieldset class="custom-fields"><legend>Custom fields</legend>${rows}</fieldset>`;
}

/** A posted value in the shape the API takes (before its checks): '' is empty (null), JSON parsed. */
function posted(def: CustomFieldDef, form: FormBody): { value: unknown } | { error: string } {
  const name = cfName(def.key);
  if (def.type === 'multi-select') return { value: formValues(form, name).filter((v) => v !== '') };
  const raw = formValue(form, name).trim();
  if (raw === '') return { value: null };
  if (def.type === 'json') {
    try {
      return { value: JSON.parse(raw) };
    } catch {
      return { error: 'Enter a valid JSON.' };
    }
  }
  return { value: raw };
}

/**
 * The posted custom fields as the API's `custom_fields` object, checked as the API checks them so
 * each error lands at its field ("This field is required." for an empty required one). Only the
 * custom fields the form showed are written (a form without them leaves them as they are).
 */
export function customFieldsFromForm(defs: CustomFieldDef[], form: FormBody): { value: Record<string, unknown> | undefined; errors: FieldErrors } {
  const value: Record<string, unknown> = {};
  const errors: FieldErrors = {};
  for (const def of defs) {
    if (!(cfName(def.key) in form)) continue;
    const got = posted(def, form);
    if ('error' in got) {
      errors[cfName(def.key)] = [got.error];
      continue;
    }
    const empty = got.value === null || (Array.isArray(got.value) && got.value.length === 0);
    if (empty) {
      if (def.required) errors[cfName(def.key)] = ['This field is required.'];
      else value[def.key] = def.type === 'multi-select' ? [] : null;
      continue;
    }
    const checked = checkCustomValue(def, got.value);
    if (checked.ok) value[def.key] = checked.value;
    else errors[cfName(def.key)] = [checked.error];
  }
  return { value: Object.keys(value).length > 0 ? value : undefined, errors };
}

/** What was posted for the custom fields, to show the form again as it was typed. */
export function postedCustomFields(defs: CustomFieldDef[], form: FormBody): Record<string, unknown> {
  return Object.fromEntries(defs.map((def) => [def.key, def.type === 'multi-select' ? formValues(form, cfName(def.key)) : formValue(form, cfName(def.key))]));
}

/** The API's refusals naming a custom field ("... custom field 'key' ...") moved to that field's input. */
export function placeCustomFieldErrors(defs: CustomFieldDef[], errors: FieldErrors): FieldErrors {
  const out: FieldErrors = {};
  const keys = new Set(defs.map((d) => d.key));
  for (const [field, messages] of Object.entries(errors)) for (const message of messages) {
    const key = /custom field '([^']+)'/.exec(message)?.[1];
    const at = key && keys.has(key) ? cfName(key) : field;
    out[at] = [...(out[at] ?? []), message];
  }
  return out;
}
