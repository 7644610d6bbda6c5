import { AppError } from '../core/errors.js';
import { columnChoices, defaultColumns, sortable } from './columns.js';
import { formCustomFields } from './custom-field-inputs.js';
import { filterForm } from './filter-form.js';
import { html, type Html } from './html.js';
import { appLabel, capitalize, csrfField, detailPath, layout, listPath, type PageContext } from './layout.js';
import { nameRelated, pageRequest, readList, type Shown } from './model-data.js';
import { showValue } from './values.js';
import type { FastifyRequest } from 'fastify';
import type { ResolvedField, ResolvedModel } from '../core/registry/types.js';
import type { Params } from '../ops/filters/apply.js';

/** Query parameters of the list page itself; every other one is a filter of the API's filter set. */
const PAGE_PARAMS = new Set(['sort', 'per_page', 'page', 'columns']);
const PER_PAGE = [25, 50, 100, 250, 500];

type ListState = { url: URL; filters: Params; sort?: string; perPage: number; page: number; columns: string[] };

function readState(ctx: PageContext, model: ResolvedModel): ListState {
  const url = ctx.url;
  const filters: Params = new Map();
  for (const [k, v] of url.searchParams) if (!PAGE_PARAMS.has(k) && v !== '') filters.set(k, [...(filters.get(k) ?? []), v]);
  const known = new Set(columnChoices(model).map((f) => f.name));
  const asked = url.searchParams.getAll('columns').flatMap((c) => c.split(',')).filter((c) => known.has(c));
  const perPage = Math.min(Math.max(Number(url.searchParams.get('per_page')) || ctx.services.config.paginateCount, 1), 1000);
  return { url, filters, sort: url.searchParams.get('sort') || undefined, perPage, page: Math.max(1, Math.floor(Number(url.searchParams.get('page')) || 1)), columns: asked.length > 0 ? asked : defaultColumns(model) };
}

/** The page's URL with some parameters replaced (null removes one). */
function withParams(url: URL, changes: Record<string, string | null>): string {
  const next = new URL(url);
  for (const [k, v] of Object.entries(changes)) {
    next.searchParams.delete(k);
    if (v !== null) next.searchParams.set(k, v);
  }
  return `${next.pathname}${next.search}`;
}

function headerCell(state: ListState, field: ResolvedField): Html {
  if (!sortable(field)) return html`<th scope="col">${field.label}</th>`;
  const current = state.sort === field.name ? 'ascending' : state.sort === `-${field.name}` ? 'descending' : undefined;
  const next = current === 'ascending' ? `-${field.name}` : field.name;
  return html`<th scope="col"${current ? html` aria-sort="${current}"` : ''}><a href="${withParams(state.url, { sort: next, page: null })}">${field.label}${current === 'ascending' ? ' ▲' : current === 'descending' ? ' ▼' : ''}</a></th>`;
}

function columnPicker(model: ResolvedModel, state: ListState): Html {
  const keep = [...state.filters].flatMap(([k, vs]) => vs.map((v) => html`<input type="hidden" name="${k}" value="${v}">`));
  return html`<details class="columns"><summary class="btn">Columns</summary><form method="get" action="${listPath(model)}"><fieldset><legend>Columns shown</legend>
${columnChoices(model).map((f) => html`<label><input type="checkbox" name="columns" value="${f.name}"${state.columns.includes(f.name) ? html` checked` : ''}> ${f.label}</label><br>`)}
</fieldset>${keep}${state.sort ? html`<input type="hidden" name="sort" value="${state.sort}">` : ''}<button type="submit">Show</button></form></details>`;
}

function pager(state: ListState, count: number): Html {
  const first = count === 0 ? 0 : (state.page - 1) * state.perPage + 1;
  const last = Math.min(count, state.page * state.perPage);
  const pages = Math.max(1, Math.ceil(count / state.perPage));
  const prev = state.page > 1 ? html`<a href="${withParams(state.url, { page: String(state.page - 1) })}" rel="prev">‹ Previous</a>` : '';
  const next = state.page < pages ? html`<a href="${withParams(state.url, { page: String(state.page + 1) })}" rel="next">Next ›</a>` : '';
  const sizes = PER_PAGE.map((n) => (n === state.perPage ? html`<b>${n}</b>` : html`<a href="${withParams(state.url, { per_page: String(n), page: null })}">${n}</a>`));
  return html`<nav class="pager" aria-label="Pages">${prev}<span>Showing ${first}–${last} of ${count} (page ${state.page} of ${pages})</span>${next}<span class="muted">Per page: ${sizes}</span></nav>`;
}

function table(ctx: PageContext, model: ResolvedModel, state: ListState, results: Shown[]): Html {
  const fields = state.columns.map((c) => model.fieldMap.get(c)).filter((f): f is ResolvedField => !!f);
  const rows = results.map((obj) => html`<tr><td><input type="checkbox" name="pk" value="${String(obj.id)}" aria-label="Select ${String(obj.display)}"></td><th scope="row"><a href="${detailPath(model, String(obj.id))}">${String(obj.display ?? obj.id)}</a></th>${fields.map((f) => html`<td>${showValue(ctx.services, obj[f.name])}</td>`)}</tr>`);
  const body = rows.length > 0 ? rows : html`<tr><td colspan="${fields.length + 2}" class="muted">No ${model.verbose_name_plural} found.</td></tr>`;
  return html`<div class="table-wrap"><table class="objects"><thead><tr><th scope="col"><input type="checkbox" data-select-all aria-label="Select all on this page"></th><th scope="col">${capitalize(model.verbose_name)}</th>${fields.map((f) => headerCell(state, f))}</tr></thead><tbody>${body}</tbody></table></div>`;
}

function exportLink(model: ResolvedModel, state: ListState): string {
  const params = new URLSearchParams();
  for (const [k, vs] of state.filters) for (const v of vs) params.append(k, v);
  if (state.sort) params.set('sort', state.sort);
  params.set('format', 'csv');
  return `/api/${model.app}/${model.path}/?${params}`;
}

/** The list page of any model: filters, quick search, sorting, columns, pages, selection for bulk actions, CSV. */
export async function listPage(ctx: PageContext, req: FastifyRequest, model: ResolvedModel): Promise<string> {
  const state = readState(ctx, model);
  let count = 0;
  let results: Shown[] = [];
  let error: Html | string = '';
  try {
    ({ count, results } = await readList(ctx.services, pageRequest(req, model, 'list'), model, state.filters, { limit: state.perPage, offset: (state.page - 1) * state.perPage, sort: state.sort, depth: 0 }));
    await nameRelated(ctx.services, req, state.columns, results);
  } catch (err) {
    if (!(err instanceof AppError) || err.status !== 400) throw err;
    error = html`<div class="alert error" role="alert">Filter refused: ${JSON.stringify(err.body)}</div>`;
  }
  const writable = !model.read_only;
  const actions = html`<div class="actions">${writable && model.creatable ? html`<a class="btn primary" href="${listPath(model)}add/">Add</a><a class="btn" href="${listPath(model)}import/">Import</a>` : ''}<a class="btn" href="${exportLink(model, state)}">Export CSV</a>${columnPicker(model, state)}</div>`;
  const bulk = writable ? html`<div class="actions"><button type="submit" formaction="${listPath(model)}edit/">Edit selected</button><button class="danger" type="submit" formaction="${listPath(model)}delete/">Delete selected</button></div>` : '';
  const content = html`<h1>${capitalize(model.verbose_name_plural)}</h1>${actions}${filterForm(ctx, model, state.filters, state.columns, await formCustomFields(ctx.services, model))}${error}
<form method="post" action="${listPath(model)}edit/" aria-label="Selection">${csrfField(ctx)}<input type="hidden" name="return_url" value="${state.url.pathname + state.url.search}">${table(ctx, model, state, results)}${bulk}</form>${pager(state, count)}`;
  return layout(ctx, capitalize(model.verbose_name_plural), content, { crumbs: [[appLabel(model.app)], [capitalize(model.verbose_name_plural)]] });
}
