import { extensionsFor } from '../ops/extensions.js';
import { filterSet } from '../ops/filters/filter-set.js';
import { html, type Html } from './html.js';
import { capitalize, listPath, type PageContext } from './layout.js';
import { picker } from './picker.js';
import type { CustomFieldDef } from '../apps/extras/custom-fields/definitions.js';
import type { ResolvedField, ResolvedModel } from '../core/registry/types.js';
import type { Params } from '../ops/filters/apply.js';

/** How one filter is asked for in the form. */
type Input =
  | { kind: 'related'; name: string; field: ResolvedField; multiple: boolean }
  | { kind: 'select'; name: string; label: string; choices: [string, string][] }
  | { kind: 'text' | 'number' | 'date'; name: string; label: string };

const YES_NO: [string, string][] = [['true', 'Yes'], ['false', 'No']];
const NUMBER = new Set(['integer', 'positive_integer', 'big_integer', 'small_integer', 'decimal', 'float']);
const TEXT = new Set(['string', 'text', 'slug', 'mac_address', 'email', 'url', 'ip_network', 'ip_interface']);
/** Filters the form leaves out: the quick search has its own box, `tag` repeats `tags`, ids and raw JSON are for scripts. */
const SKIP = new Set(['q', 'id', 'tag']);

const labelOf = (name: string) => capitalize(name.replace(/__ic$/, ' contains').replace(/^cf_/, '').replace(/_/g, ' '));

/** A filter of a model field by its kind: related objects and tags by picker, choices and yes/no by select, texts by "contains". */
function fieldInput(field: ResolvedField): Input | undefined {
  if (field.kind === 'fk') return { kind: 'related', name: field.name, field, multiple: false };
  if (field.kind === 'm2m') return { kind: 'related', name: field.name, field, multiple: true };
  if (field.kind === 'choice') return { kind: 'select', name: field.name, label: field.label, choices: (field.choices ?? []).map(([v, l]) => [String(v), String(l)]) };
  if (field.kind === 'boolean') return { kind: 'select', name: field.name, label: field.label, choices: YES_NO };
  if (NUMBER.has(field.kind)) return { kind: 'number', name: field.name, label: field.label };
  if (field.kind === 'date') return { kind: 'date', name: field.name, label: field.label };
  if (TEXT.has(field.kind)) return field.behaviour.lookups.includes('ic') ? { kind: 'text', name: `${field.name}__ic`, label: `${field.label} contains` } : { kind: 'text', name: field.name, label: field.label };
  return undefined;
}

/** An app filter no model field describes: `has_*` / `is_*` and boolean ones as yes/no, ids left out, the rest as text (a name or an id). */
function appInput(name: string, schema: Record<string, unknown> | undefined): Input | undefined {
  if (name.endsWith('_id') || schema?.format === 'uuid') return undefined;
  if (schema?.type === 'boolean' || /^(has|is)_/.test(name)) return { kind: 'select', name, label: labelOf(name), choices: YES_NO };
  if (schema?.type === 'integer' || schema?.type === 'number') return { kind: 'number', name, label: labelOf(name) };
  return { kind: 'text', name, label: labelOf(name) };
}

/** A custom field's filter (`cf_<key>`) by its type. */
function customInput(def: CustomFieldDef): Input {
  const name = `cf_${def.key}`;
  if (def.type === 'select' || def.type === 'multi-select') return { kind: 'select', name, label: def.label, choices: def.choices.map((c) => [c, c]) };
  if (def.type === 'boolean') return { kind: 'select', name, label: def.label, choices: YES_NO };
  if (def.type === 'integer') return { kind: 'number', name, label: def.label };
  if (def.type === 'date') return { kind: 'date', name, label: def.label };
  return { kind: 'text', name, label: def.label };
}

/** The model's whole filter set as form inputs: its fields' filters, then the apps' filters, then custom fields. */
function inputsOf(ctx: PageContext, model: ResolvedModel, customFields: CustomFieldDef[]): Input[] {
  const out = new Map<string, Input>();
  for (const [name] of filterSet(model)) {
    const field = model.fieldMap.get(name);
    const input = !SKIP.has(name) && field && (!field.common || name === 'tags') ? fieldInput(field) : undefined;
    if (input) out.set(name, input);
  }
  for (const ext of extensionsFor(ctx.services, model)) for (const [name, def] of Object.entries(ext.filters ?? {})) {
    if (SKIP.has(name) || out.has(name)) continue;
    const input = appInput(name, def.schema);
    if (input) out.set(name, input);
  }
  for (const def of customFields) out.set(`cf_${def.key}`, customInput(def));
  return [...out.values()];
}

/** The first filters shown open: related objects, choices and yes/no of the model's own fields (as the reference's forms lead with). */
const FIRST = 14;
const isFirst = (input: Input) => (input.kind === 'related' || input.kind === 'select') && !input.name.startsWith('cf_') && !/^(has|is)_/.test(input.name);

function control(ctx: PageContext, model: ResolvedModel, input: Input, values: string[]): Html {
  const id = `filter_${input.name}`;
  if (input.kind === 'related') {
    const field = input.field;
    return html`<div><label for="${id}">${field.label}</label>${picker(ctx.services, model, field, { id, name: input.name, selected: values.map((v) => ({ value: v, label: v })), multiple: input.multiple })}</div>`;
  }
  if (input.kind === 'select') {
    return html`<div><label for="${id}">${input.label}</label><select id="${id}" name="${input.name}"><option value="">Any</option>${input.choices.map(([v, l]) => html`<option value="${v}"${values.includes(v) ? html` selected` : ''}>${l}</option>`)}</select></div>`;
  }
  return html`<div><label for="${id}">${input.label}</label><input id="${id}" name="${input.name}" type="${input.kind === 'text' ? 'search' : input.kind}" value="${values[0] ?? ''}"></div>`;
}

/**
 * The list's filter form, built from the model's whole filter set: quick search, the leading
 * related/choice filters, and every other filter (texts, numbers, yes/no, app filters, custom
 * fields) under "More filters", open when one of them is in use.
 */
export function filterForm(ctx: PageContext, model: ResolvedModel, filters: Params, columns: string[], customFields: CustomFieldDef[]): Html {
  const inputs = inputsOf(ctx, model, customFields);
  const first = inputs.filter(isFirst).slice(0, FIRST);
  const rest = inputs.filter((i) => !first.includes(i));
  const active = [...filters.keys()];
  const moreActive = rest.some((i) => filters.has(i.name));
  const q = model.search ? html`<div><label for="filter_q">Search</label><input id="filter_q" type="search" name="q" value="${filters.get('q')?.[0] ?? ''}"></div>` : '';
  const hidden = columns.map((c) => html`<input type="hidden" name="columns" value="${c}">`);
  const more = rest.length > 0 ? html`<details class="more-filters"${moreActive ? html` open` : ''}><summary>More filters (${rest.length})</summary><div class="filters">${rest.map((i) => control(ctx, model, i, filters.get(i.name) ?? []))}</div></details>` : '';
  return html`<details class="card"${active.length > 0 ? html` open` : ''}><summary>Filters${active.length > 0 ? ` (${active.join(', ')})` : ''}</summary>
<form class="filters" method="get" action="${listPath(model)}" aria-label="Filters">${q}${first.map((i) => control(ctx, model, i, filters.get(i.name) ?? []))}${more}${hidden}
<div class="actions"><button class="primary" type="submit">Apply</button><a class="btn" href="${listPath(model)}">Clear</a></div></form></details>`;
}
