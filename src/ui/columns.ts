import type { ResolvedField, ResolvedModel } from '../core/registry/types.js';

/** Keys of the API body that are plumbing, not something a person reads in a table or a form. */
const PLUMBING = new Set(['id', 'object_type', 'display', 'url', 'natural_slug', 'notes_url', 'computed_fields', 'relationships', 'config_context', 'local_config_context_data', 'local_config_context_schema', 'local_config_context_data_owner_content_type', 'local_config_context_data_owner_object_id']);
/** Long texts: shown on the detail page, not as list columns by default. */
const LONG = new Set(['description', 'comments', 'custom_fields', 'created', 'last_updated']);

/** Fields a list may show as columns (what the API renders). */
export function columnChoices(model: ResolvedModel): ResolvedField[] {
  return model.fields.filter((f) => !f.hidden && !f.write_only && !PLUMBING.has(f.name) && !f.opt_in);
}

/** The columns shown when the user chose none: the name, then the first few short fields. */
export function defaultColumns(model: ResolvedModel): string[] {
  const short = columnChoices(model).filter((f) => !LONG.has(f.name) && f.kind !== 'json' && f.kind !== 'json_document' && f.kind !== 'm2m' && f.kind !== 'content_types' && f.kind !== 'count');
  return short.slice(0, 7).map((f) => f.name);
}

/** Whether the list can be sorted by this field (`sort=` takes stored columns). */
export function sortable(field: ResolvedField): boolean {
  return !!field.column && field.kind !== 'json' && field.kind !== 'json_document';
}

/** Fields a create or edit form takes (what the API accepts on write), tags and custom fields included. */
export function formFields(model: ResolvedModel): ResolvedField[] {
  return model.fields.filter((f) => !f.read_only && !f.hidden && !PLUMBING.has(f.name) && f.kind !== 'count' && f.kind !== 'computed' && f.kind !== 'auto_id' && f.kind !== 'tree_depth' && f.name !== 'id');
}
