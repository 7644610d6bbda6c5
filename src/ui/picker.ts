import { html, type Html } from './html.js';
import type { ResolvedField, ResolvedModel } from '../core/registry/types.js';
import type { Services } from '../ops/services.js';

export type Option = { value: string; label: string };

/** The list endpoint a picker searches, with the parameter its typed term goes in. */
function pickerSource(services: Services, field: ResolvedField, owner: ResolvedModel): { api: string; term: string; query: string } | undefined {
  const target = field.to ? services.registry.find(field.to) : undefined;
  if (!target || target.internal) return undefined;
  const term = target.search ? 'q' : target.fieldMap.has('name') ? 'name__ic' : '';
  const query = field.limit_to_content_type ? `content_types=${owner.id}` : '';
  return { api: `/api/${target.app}/${target.path}/`, term, query };
}

/**
 * A related-object picker: a select holding the current choice(s), and a search box whose typed
 * text asks the API for matches as you type (ui.js); without script, the select keeps the value.
 */
export function picker(services: Services, owner: ResolvedModel, field: ResolvedField, opts: { id: string; name: string; selected: Option[]; multiple?: boolean; describedBy?: string; required?: boolean }): Html {
  const source = pickerSource(services, field, owner);
  const options = opts.selected.map((o) => html`<option value="${o.value}" selected>${o.label}</option>`);
  const blank = opts.multiple ? '' : html`<option value="">---------</option>`;
  const select = html`<select id="${opts.id}" name="${opts.name}"${opts.multiple ? html` multiple` : ''}${opts.required ? html` required` : ''}${opts.describedBy ? html` aria-describedby="${opts.describedBy}"` : ''}${source ? html` data-api="${source.api}" data-term="${source.term}" data-query="${source.query}"` : ''}>${blank}${options}</select>`;
  if (!source) return select;
  return html`<div class="picker">${select}<input type="search" class="picker-search" data-picker-for="${opts.id}" aria-label="Search ${field.label}" placeholder="Type to search ${field.label.toLowerCase()}" autocomplete="off"></div>`;
}
