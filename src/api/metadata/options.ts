import { isWritable } from '../../ops/write/build-item.js';
import { hasPermission } from '../../ops/permissions.js';
import { FOREIGN_CONTENT_TYPES } from '../../core/registry/content-type-order.js';
import { imageFields } from '../../core/registry/image-fields.js';
import type { ResolvedField, ResolvedModel } from '../../core/registry/types.js';
import type { Actor, Services } from '../../ops/services.js';

/** "ip addresses" -> "Ip Addresses"; words already capitalised stay ("IP Addresses"). */
export function titleCase(text: string): string {
  return text.split(' ').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');
}

const LIMITS = ['max_length', 'min_length', 'min_value', 'max_value', 'max_digits', 'decimal_places'] as const;

function fieldMetadata(services: Services, field: ResolvedField): Record<string, unknown> {
  const readOnly = !isWritable(field);
  const meta: Record<string, unknown> = {
    type: field.options_type ?? field.behaviour.optionsType,
    required: !readOnly && field.required,
    read_only: readOnly,
    label: field.label,
  };
  if (field.help_text) meta.help_text = field.help_text;
  for (const key of LIMITS) if (field[key] !== undefined && !(key === 'min_value' && field.kind === 'positive_integer' && readOnly)) meta[key] = field[key];
  if (!readOnly && field.choices) meta.choices = (field.choices ?? []).map(([value, display]) => ({ value, display }));
  if (!readOnly && field.kind === 'content_type' && !field.options_no_choices) meta.choices = contentTypeChoices(services, field);
  if (field.options_child) meta.child = field.options_child;
  return meta;
}

/**
 * A content-type field's choices as the reference lists them: by display text, compared by
 * code point (upper case first); a field that accepts any content type also offers the
 * reference's content types of models this service does not have.
 */
function contentTypeChoices(services: Services, field: ResolvedField): { value: string; display: string }[] {
  const choices = services.registry.contentTypeChoices(field).map((m) => ({ value: m.id, display: `${m.id.slice(0, m.id.indexOf('.'))} | ${m.verbose_name}` }));
  if (!field.content_type_models && !field.content_type_feature) choices.push(...FOREIGN_CONTENT_TYPES.map(([value, display]) => ({ value, display })));
  return choices.sort((a, b) => (a.display < b.display ? -1 : a.display > b.display ? 1 : 0));
}

/**
 * OPTIONS body as JSON text. Integer limits at the 64-bit bounds are written exactly, as the
 * reference writes them (a JavaScript number rounds 2^63 - 1 to 9223372036854776000).
 */
export function optionsJsonText(body: unknown): string {
  return JSON.stringify(body).replace(/("m(?:in|ax)_value":)(-?)9223372036854776000\b/g, (_, key: string, minus: string) => `${key}${minus ? '-9223372036854775808' : '9223372036854775807'}`);
}

/** Field metadata for POST/PUT, in the model's field order (hidden fields left out). */
export function describeFields(services: Services, model: ResolvedModel): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of model.fields) if (!field.hidden) out[field.name] = fieldMetadata(services, field);
  return out;
}

/** OPTIONS body (api-behaviour.md section 10): actions only for what the actor may do. */
export function buildOptions(services: Services, model: ResolvedModel, opts: { actor: Actor | null; detail: boolean; writeEnabled: boolean }) {
  const body: Record<string, unknown> = {
    name: titleCase(opts.detail ? model.verbose_name : model.verbose_name_plural),
    description: model.description,
    renders: ['application/json', 'text/html', 'text/csv'],
    // A model with an image field also takes multipart/form-data, as the reference's viewsets of those models.
    parses: imageFields(model).length > 0 ? ['application/json', 'text/csv', 'multipart/form-data'] : ['application/json', 'text/csv'],
  };
  if (model.read_only || !opts.actor || !opts.writeEnabled) return body;
  const actions: Record<string, unknown> = {};
  const fields = describeFields(services, model);
  if (!opts.detail && model.creatable && hasPermission(services, opts.actor, 'add', model)) actions.POST = fields;
  if (hasPermission(services, opts.actor, 'change', model)) actions.PUT = fields;
  if (Object.keys(actions).length > 0) body.actions = actions;
  return body;
}
