import { html, type Html } from './html.js';
import { detailPath } from './layout.js';
import type { ResolvedModel } from '../core/registry/types.js';
import type { Services } from '../ops/services.js';

const byObjectType = new WeakMap<Services, Map<string, ResolvedModel>>();

/** The model an API `object_type` names (its pages), or undefined for one without pages. */
export function modelOfType(services: Services, objectType: unknown): ResolvedModel | undefined {
  let map = byObjectType.get(services);
  if (!map) {
    map = new Map();
    for (const m of services.registry.models) if (!m.internal) map.set(m.id, m);
    for (const m of services.registry.models) if (!m.internal) map.set((m as { object_type?: string }).object_type ?? m.id, m);
    byObjectType.set(services, map);
  }
  return typeof objectType === 'string' ? map.get(objectType) : undefined;
}

const isRelated = (v: Record<string, unknown>) => typeof v.id === 'string' || typeof v.id === 'number';

/** A related object as a link to its page (its display text, else its id). */
export function relatedLink(services: Services, value: Record<string, unknown>): Html {
  const text = String(value.display ?? value.name ?? value.id);
  const model = modelOfType(services, value.object_type);
  return model ? html`<a href="${detailPath(model, String(value.id))}">${text}</a>` : html`${text}`;
}

const empty = html`<span class="muted">—</span>`;

/** Any API value as HTML: related objects as links, choices as labels, lists joined, JSON as JSON. */
export function showValue(services: Services, value: unknown): Html {
  if (value === null || value === undefined || value === '') return empty;
  if (typeof value === 'boolean') return value ? html`<span aria-label="Yes">✔ Yes</span>` : html`<span aria-label="No">✘ No</span>`;
  if (Array.isArray(value)) {
    if (value.length === 0) return empty;
    if (value.every((v) => v && typeof v === 'object' && isRelated(v as Record<string, unknown>))) return html`${value.map((v) => html`<span class="badge">${relatedLink(services, v as Record<string, unknown>)}</span>`)}`;
    if (value.every((v) => typeof v !== 'object')) return html`${value.join(', ')}`;
    return html`<pre class="json">${JSON.stringify(value, null, 2)}</pre>`;
  }
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if ('label' in v && 'value' in v && Object.keys(v).length === 2) return html`${String(v.label)}`;
    if (isRelated(v) && ('object_type' in v || 'url' in v)) return relatedLink(services, v);
    return Object.keys(v).length === 0 ? empty : html`<pre class="json">${JSON.stringify(v, null, 2)}</pre>`;
  }
  if (typeof value === 'string' && /^https?:\/\//.test(value)) return html`<a href="${value}" rel="noreferrer">${value}</a>`;
  return html`${String(value)}`;
}
