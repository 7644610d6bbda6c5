import { AppError } from '../core/errors.js';
import { parseCsvBody } from '../ops/csv/import.js';
import { bulkDelete, bulkUpdate, createObjects } from '../ops/crud.js';
import { formFields } from './columns.js';
import { formValue, formValues, type FormBody } from './form-body.js';
import { fieldErrors, formToBody } from './form-view.js';
import { html, type Html } from './html.js';
import { appLabel, capitalize, csrfField, detailPath, layout, listPath, type PageContext } from './layout.js';
import { pageRequest, readList } from './model-data.js';
import { seeOther, sendHtml } from './page.js';
import { picker } from './picker.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ResolvedField, ResolvedModel } from '../core/registry/types.js';

function crumbs(model: ResolvedModel, last: string) {
  return [[appLabel(model.app)], [capitalize(model.verbose_name_plural), listPath(model)], [last]] as const;
}

/** Where to go back to: the list the selection came from (a path on this site), else the model's list. */
function returnUrl(model: ResolvedModel, form: FormBody): string {
  const url = formValue(form, 'return_url');
  return url.startsWith(listPath(model)) ? url : listPath(model);
}

async function selected(ctx: PageContext, req: FastifyRequest, model: ResolvedModel, ids: string[]) {
  if (ids.length === 0) return [];
  const { results } = await readList(ctx.services, pageRequest(req, model, 'list'), model, new Map([['id', ids]]), { limit: ids.length, offset: 0, depth: 0 });
  return results;
}

function selectionFields(ids: string[], form: FormBody): Html {
  return html`${ids.map((id) => html`<input type="hidden" name="pk" value="${id}">`)}<input type="hidden" name="return_url" value="${formValue(form, 'return_url')}">`;
}

/** Bulk edit: fields that may be set on every selected object (left blank: unchanged; "set null" empties one). */
function bulkFields(model: ResolvedModel): ResolvedField[] {
  return formFields(model).filter((f) => !f.unique && !['name', 'custom_fields', 'password'].includes(f.name) && f.kind !== 'json' && f.kind !== 'json_document');
}

function bulkControl(ctx: PageContext, model: ResolvedModel, f: ResolvedField): Html {
  const id = `id_${f.name}`;
  if (f.kind === 'fk' || f.kind === 'm2m') return picker(ctx.services, model, f, { id, name: f.name, selected: [], multiple: f.kind === 'm2m' });
  if (f.kind === 'boolean') return html`<select id="${id}" name="${f.name}"><option value="">(unchanged)</option><option value="true">Yes</option><option value="false">No</option></select>`;
  if (f.choices) return html`<select id="${id}" name="${f.name}"><option value="">(unchanged)</option>${f.choices.map(([v, l]) => html`<option value="${String(v)}">${l}</option>`)}</select>`;
  return html`<input id="${id}" name="${f.name}">`;
}

function bulkEditForm(ctx: PageContext, model: ResolvedModel, ids: string[], form: FormBody, names: string[], error?: Html): string {
  const rows = bulkFields(model).map((f) => html`<div class="field"><label for="id_${f.name}">${f.label}</label><div>${bulkControl(ctx, model, f)}${f.nullable ? html` <label><input type="checkbox" name="_nullify" value="${f.name}"> Set null</label>` : ''}</div></div>`);
  const content = html`<h1>Edit ${ids.length} ${model.verbose_name_plural}</h1>${error ?? ''}<p>${names.join(', ')}</p><form method="post" action="${listPath(model)}edit/" class="fields card">${csrfField(ctx)}${selectionFields(ids, form)}<input type="hidden" name="_apply" value="1">${rows}<div class="actions"><button class="primary" type="submit">Apply</button><a class="btn" href="${returnUrl(model, form)}">Cancel</a></div></form>`;
  return layout(ctx, `Edit ${model.verbose_name_plural}`, content, { crumbs: crumbs(model, 'Bulk edit') });
}

/** POST edit/ from a list selection: the form first, then (`_apply`) one PATCH of every selected object, all or none. */
export async function bulkEdit(ctx: PageContext, req: FastifyRequest, reply: FastifyReply, model: ResolvedModel) {
  const form = req.body as FormBody;
  const ids = formValues(form, 'pk');
  if (ids.length === 0) return seeOther(reply, returnUrl(model, form));
  const objects = await selected(ctx, req, model, ids);
  const names = objects.map((o) => String(o.display));
  if (!formValue(form, '_apply')) return bulkEditForm(ctx, model, ids, form, names);
  const fields = bulkFields(model);
  const filled: FormBody = {};
  for (const f of fields) if (formValues(form, f.name).some((v) => v !== '')) filled[f.name] = form[f.name];
  const { body, errors } = formToBody(model, filled, { creating: false, fields });
  for (const name of formValues(form, '_nullify')) if (fields.some((f) => f.name === name && f.nullable)) body[name] = null;
  try {
    if (Object.keys(errors).length > 0) throw new AppError({ code: 'INV_ERR_VALIDATION', body: errors });
    await bulkUpdate(ctx.services, pageRequest(req, model, 'bulk_edit'), model, objects.map((o) => ({ id: o.id, ...body })), new Map(), true);
  } catch (err) {
    if (!(err instanceof AppError) || err.status !== 400) throw err;
    return sendHtml(reply, 400, bulkEditForm(ctx, model, ids, form, names, html`<div class="alert error" role="alert">${JSON.stringify(err.body)}</div>`));
  }
  return seeOther(reply, returnUrl(model, form));
}

/** POST delete/ from a list selection: a confirmation listing the objects, then (`_confirm`) one delete of them all. */
export async function bulkDeleteView(ctx: PageContext, req: FastifyRequest, reply: FastifyReply, model: ResolvedModel) {
  const form = req.body as FormBody;
  const ids = formValues(form, 'pk');
  if (ids.length === 0) return seeOther(reply, returnUrl(model, form));
  const objects = await selected(ctx, req, model, ids);
  let error: Html | string = '';
  if (formValue(form, '_confirm')) {
    try {
      await bulkDelete(ctx.services, pageRequest(req, model, 'bulk_delete'), model, objects.map((o) => ({ id: o.id })), new Map());
      return seeOther(reply, returnUrl(model, form));
    } catch (err) {
      if (!(err instanceof AppError) || (err.status !== 400 && err.status !== 409)) throw err;
      error = html`<div class="alert error" role="alert">${Object.values(fieldErrors(err)).flat().join(' ')}</div>`;
    }
  }
  const list = html`<ul>${objects.map((o) => html`<li><a href="${detailPath(model, String(o.id))}">${String(o.display)}</a></li>`)}</ul>`;
  const content = html`<h1>Delete ${objects.length} ${model.verbose_name_plural}?</h1>${error}<form method="post" action="${listPath(model)}delete/" class="card">${csrfField(ctx)}${selectionFields(ids, form)}<input type="hidden" name="_confirm" value="1">${list}<div class="actions"><button class="danger" type="submit">Delete them</button><a class="btn" href="${returnUrl(model, form)}">Cancel</a></div></form>`;
  return sendHtml(reply, error ? 409 : 200, layout(ctx, `Delete ${model.verbose_name_plural}`, content, { crumbs: crumbs(model, 'Bulk delete') }));
}

function importForm(ctx: PageContext, model: ResolvedModel, csv: string, error?: Html): string {
  const columns = formFields(model).filter((f) => f.kind !== 'm2m' || f.name === 'tags').map((f) => f.name).join(',');
  const content = html`<h1>Import ${model.verbose_name_plural}</h1>${error ?? ''}<form method="post" action="${listPath(model)}import/" class="card">${csrfField(ctx)}<label for="id_csv">CSV data (a header row of field names, then one object per row; related objects by name or natural key)</label><textarea id="id_csv" name="csv" rows="12" required>${csv}</textarea><p class="muted">Columns: <code>${columns}</code></p><div class="actions"><button class="primary" type="submit">Import</button></div></form>`;
  return layout(ctx, `Import ${model.verbose_name_plural}`, content, { crumbs: crumbs(model, 'Import') });
}

export async function importPage(ctx: PageContext, model: ResolvedModel): Promise<string> {
  return importForm(ctx, model, '');
}

/** POST import/: every row becomes an object, all or none (the API's CSV import); errors name the row and field. */
export async function submitImport(ctx: PageContext, req: FastifyRequest, reply: FastifyReply, model: ResolvedModel) {
  const csv = formValue(req.body as FormBody, 'csv');
  try {
    const rows = parseCsvBody(model, csv, ctx.services.config.limits.csvRows);
    const created = await createObjects(ctx.services, pageRequest(req, model, 'import'), model, rows);
    return seeOther(reply, `${listPath(model)}?${created.map((r) => `id=${r.id}`).slice(0, 500).join('&')}`);
  } catch (err) {
    if (!(err instanceof AppError) || err.status >= 500) throw err;
    const body = err.body as unknown;
    const lines = Array.isArray(body) ? body.map((e, i) => (e && Object.keys(e).length > 0 ? `Row ${i + 1}: ${JSON.stringify(e)}` : '')).filter(Boolean) : [JSON.stringify(body)];
    return sendHtml(reply, err.status, importForm(ctx, model, csv, html`<div class="alert error" role="alert"><ul>${lines.map((l) => html`<li>${l}</li>`)}</ul></div>`));
  }
}
