import { AppError, ValidationError } from '../core/errors.js';
import { createObjects, deleteObject, updateObject } from '../ops/crud.js';
import { formFields } from './columns.js';
import { cfName, customFieldInputs, customFieldsFromForm, formCustomFields, placeCustomFieldErrors, postedCustomFields } from './custom-field-inputs.js';
import { formValue, formValues, type FormBody } from './form-body.js';
import { html, type Html } from './html.js';
import { appLabel, capitalize, csrfField, detailPath, layout, listPath, type PageContext } from './layout.js';
import { pageRequest, readList, readOne, type Shown } from './model-data.js';
import { seeOther, sendHtml } from './page.js';
import { picker, type Option } from './picker.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ResolvedField, ResolvedModel } from '../core/registry/types.js';
import type { CustomFieldDef } from '../apps/extras/custom-fields/definitions.js';

export type FieldErrors = Record<string, string[]>;
const NUMBER = new Set(['integer', 'positive_integer', 'big_integer', 'decimal', 'float']);
const LONG_TEXT = new Set(['text', 'json', 'json_document']);

/** Errors of a refused write by field (lists of messages); nested or list shapes become JSON text. */
export function fieldErrors(err: AppError): FieldErrors {
  const body = err.body as unknown;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return { non_field_errors: [JSON.stringify(body)] };
  const out: FieldErrors = {};
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
    const key = k === 'detail' || k === '__all__' ? 'non_field_errors' : k;
    out[key] = Array.isArray(v) ? v.map((m) => (typeof m === 'string' ? m : JSON.stringify(m))) : [typeof v === 'string' ? v : JSON.stringify(v)];
  }
  return out;
}

function selectedOptions(value: unknown): Option[] {
  const list = Array.isArray(value) ? value : value === null || value === undefined || value === '' ? [] : [value];
  return list.map((v) => (v && typeof v === 'object' ? { value: String((v as Shown).id), label: String((v as Shown).display ?? (v as Shown).name ?? (v as Shown).id) } : { value: String(v), label: String(v) }));
}

function choiceValue(value: unknown): string {
  return value && typeof value === 'object' && 'value' in (value as Shown) ? String((value as Shown).value) : value === null || value === undefined ? '' : String(value);
}

function control(ctx: PageContext, model: ResolvedModel, field: ResolvedField, value: unknown, describedBy: string | undefined): Html {
  const id = `id_${field.name}`;
  const aria = html`${describedBy ? html` aria-describedby="${describedBy}" aria-invalid="true"` : ''}${field.required ? html` required` : ''}`;
  switch (field.kind) {
    case 'fk': return picker(ctx.services, model, field, { id, name: field.name, selected: selectedOptions(value), describedBy, required: field.required });
    case 'm2m': return picker(ctx.services, model, field, { id, name: field.name, selected: selectedOptions(value), multiple: true, describedBy });
    case 'boolean': return html`<input type="hidden" name="${field.name}" value=""><input type="checkbox" id="${id}" name="${field.name}" value="true"${value === true ? html` checked` : ''}${describedBy ? html` aria-describedby="${describedBy}"` : ''}>`;
    case 'content_types': case 'content_type': {
      const chosen = new Set((Array.isArray(value) ? value : [value]).map(String));
      const models = ctx.services.registry.contentTypeChoices(field);
      return html`<select id="${id}" name="${field.name}"${field.kind === 'content_types' ? html` multiple size="8"` : ''}${aria}>${field.kind === 'content_type' ? html`<option value="">---------</option>` : ''}${models.map((m) => html`<option value="${m.id}"${chosen.has(m.id) ? html` selected` : ''}>${m.id}</option>`)}</select>`;
    }
    default: break;
  }
  if (field.choices) {
    const current = choiceValue(value);
    return html`<select id="${id}" name="${field.name}"${aria}><option value="">---------</option>${field.choices.map(([v, l]) => html`<option value="${String(v)}"${String(v) === current ? html` selected` : ''}>${l}</option>`)}</select>`;
  }
  const text = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value, null, 2) : String(value);
  if (LONG_TEXT.has(field.kind)) return html`<textarea id="${id}" name="${field.name}"${aria}>${text}</textarea>`;
  const type = NUMBER.has(field.kind) ? 'number' : field.kind === 'password' ? 'password' : field.kind === 'date' ? 'date' : field.kind === 'email' ? 'email' : field.kind === 'url' ? 'url' : 'text';
  return html`<input id="${id}" name="${field.name}" type="${type}"${type === 'number' ? html` step="any"` : ''} value="${type === 'password' ? '' : text}"${field.max_length ? html` maxlength="${field.max_length}"` : ''}${aria}>`;
}

/** One labelled field with its help and its errors (announced, and tied to the control). */
function fieldRow(ctx: PageContext, model: ResolvedModel, field: ResolvedField, value: unknown, errors: string[] | undefined): Html {
  const errorId = errors ? `err_${field.name}` : undefined;
  const help = field.help_text ? html`<div class="help">${field.help_text}</div>` : '';
  const messages = errors ? html`<div class="error" id="${errorId}" role="alert">${errors.join(' ')}</div>` : '';
  return html`<div class="field${field.required ? ' required' : ''}${errors ? ' invalid' : ''}"><label for="id_${field.name}">${field.label}</label><div>${control(ctx, model, field, value, errorId)}${help}${messages}</div></div>`;
}

/** The form of any model's fields, filled with `values` (an object as the API renders it, or what was posted). */
export function objectForm(ctx: PageContext, model: ResolvedModel, values: Shown, errors: FieldErrors, opts: { action: string; submit: string; fields?: ResolvedField[]; customFields?: CustomFieldDef[] }): Html {
  const fields = opts.fields ?? formFields(model);
  const known = new Set([...fields.map((f) => f.name), ...(opts.customFields ?? []).map((d) => cfName(d.key))]);
  const other = Object.entries(errors).filter(([k]) => !known.has(k)).map(([k, v]) => (k === 'non_field_errors' ? v.join(' ') : `${k}: ${v.join(' ')}`));
  const top = other.length > 0 ? html`<div class="alert error" role="alert">${other.join(' ')}</div>` : Object.keys(errors).length > 0 ? html`<div class="alert error" role="alert">Please correct the errors below.</div>` : '';
  return html`${top}<form method="post" action="${opts.action}" class="fields card" novalidate>${csrfField(ctx)}${fields.map((f) => (f.name === 'custom_fields' && opts.customFields ? customFieldInputs(opts.customFields, values.custom_fields, errors) : fieldRow(ctx, model, f, values[f.name], errors[f.name])))}<div class="actions"><button class="primary" type="submit">${opts.submit}</button></div></form>`;
}

/** A posted form as the API's JSON body: related objects by id, numbers, yes/no, JSON parsed; blanks left out on create. */
export function formToBody(model: ResolvedModel, form: FormBody, opts: { creating: boolean; fields?: ResolvedField[]; customFields?: CustomFieldDef[] }): { body: Record<string, unknown>; errors: FieldErrors } {
  const body: Record<string, unknown> = {};
  const errors: FieldErrors = {};
  for (const field of opts.fields ?? formFields(model)) {
    if (field.name === 'custom_fields' && opts.customFields) {
      const custom = customFieldsFromForm(opts.customFields, form);
      if (custom.value) body.custom_fields = custom.value;
      Object.assign(errors, custom.errors);
      continue;
    }
    if (!(field.name in form)) continue;
    const values = formValues(form, field.name).filter((v) => v !== '');
    if (field.kind === 'm2m' || field.kind === 'content_types') { body[field.name] = values; continue; }
    if (field.kind === 'boolean') { body[field.name] = values.includes('true'); continue; }
    const raw = formValue(form, field.name);
    if (raw === '') {
      if (field.nullable) body[field.name] = null;
      else if (!opts.creating) body[field.name] = '';
      continue;
    }
    if (NUMBER.has(field.kind)) body[field.name] = Number.isFinite(Number(raw)) ? Number(raw) : raw;
    else if (field.kind === 'json' || field.kind === 'json_document') {
      try { body[field.name] = JSON.parse(raw); } catch { errors[field.name] = ['Enter a valid JSON.']; }
    } else body[field.name] = raw;
  }
  return { body, errors };
}

/** What the posted form showed, to render it again with its errors (related objects keep their labels as ids). */
function echo(model: ResolvedModel, form: FormBody, before: Shown, customFields: CustomFieldDef[]): Shown {
  const out: Shown = { ...before, ...(customFields.length > 0 ? { custom_fields: postedCustomFields(customFields, form) } : {}) };
  for (const field of formFields(model)) {
    if (!(field.name in form) || field.name === 'custom_fields') continue;
    const values = formValues(form, field.name).filter((v) => v !== '');
    const previous = (Array.isArray(before[field.name]) ? before[field.name] : [before[field.name]]) as Shown[];
    const label = (v: string) => previous.find((p) => p && typeof p === 'object' && String(p.id) === v) ?? v;
    if (field.kind === 'm2m' || field.kind === 'content_types') out[field.name] = values.map(label);
    else if (field.kind === 'boolean') out[field.name] = values.includes('true');
    else if (field.kind === 'fk') out[field.name] = values[0] ? label(values[0]) : null;
    else out[field.name] = formValue(form, field.name);
  }
  return out;
}

/** Related objects that came back as bare ids from a posted form get their display names again (one read per field). */
async function labelled(ctx: PageContext, req: FastifyRequest, model: ResolvedModel, shown: Shown): Promise<Shown> {
  for (const field of formFields(model)) {
    const target = (field.kind === 'fk' || field.kind === 'm2m') && field.to ? ctx.services.registry.find(field.to) : undefined;
    const values = (Array.isArray(shown[field.name]) ? shown[field.name] : [shown[field.name]]) as unknown[];
    const ids = values.filter((v): v is string => typeof v === 'string' && v !== '');
    if (!target || ids.length === 0) continue;
    const { results } = await readList(ctx.services, pageRequest(req, target, 'list'), target, new Map([['id', ids]]), { limit: ids.length, offset: 0, depth: 0 }).catch(() => ({ results: [] as Shown[] }));
    const byId = new Map(results.map((r) => [String(r.id), r]));
    const swap = (v: unknown) => (typeof v === 'string' ? byId.get(v) ?? v : v);
    shown[field.name] = Array.isArray(shown[field.name]) ? values.map(swap) : swap(shown[field.name]);
  }
  return shown;
}

function formPage(ctx: PageContext, model: ResolvedModel, title: string, form: Html, crumbs: readonly (readonly [string, string?])[]): string {
  return layout(ctx, title, html`<h1>${title}</h1>${form}`, { crumbs: [[appLabel(model.app)], [capitalize(model.verbose_name_plural), listPath(model)], ...crumbs] });
}

/** Initial values of a new object from the query (`?rack=<id>&location=<id>` from a rack's page), related ones shown by name. */
async function initialValues(ctx: PageContext, req: FastifyRequest, model: ResolvedModel): Promise<Shown> {
  const out: Shown = {};
  for (const field of formFields(model)) {
    const v = ctx.url.searchParams.get(field.name);
    if (!v) continue;
    const target = field.kind === 'fk' && field.to ? ctx.services.registry.find(field.to) : undefined;
    out[field.name] = target ? await readOne(ctx.services, pageRequest(req, target, 'detail'), target, v).catch(() => v) : v;
  }
  return out;
}

export async function addPage(ctx: PageContext, req: FastifyRequest, model: ResolvedModel): Promise<string> {
  const customFields = await formCustomFields(ctx.services, model);
  const initial = { custom_fields: Object.fromEntries(customFields.map((d) => [d.key, d.default])), ...await initialValues(ctx, req, model) };
  const form = objectForm(ctx, model, initial, {}, { action: `${listPath(model)}add/`, submit: 'Create', customFields });
  return formPage(ctx, model, `Add a new ${model.verbose_name}`, form, [['Add']]);
}

/** POST add/: created -> its page (303); refused -> the form again with the errors at the fields (400). */
export async function submitAdd(ctx: PageContext, req: FastifyRequest, reply: FastifyReply, model: ResolvedModel) {
  const form = req.body as FormBody;
  const customFields = await formCustomFields(ctx.services, model);
  const { body, errors } = formToBody(model, form, { creating: true, customFields });
  let refused = errors;
  if (Object.keys(errors).length === 0) {
    try {
      const [row] = await createObjects(ctx.services, pageRequest(req, model, 'add'), model, body);
      return seeOther(reply, detailPath(model, String(row.id)));
    } catch (err) {
      if (!(err instanceof ValidationError) && !(err instanceof AppError && err.status === 400)) throw err;
      refused = placeCustomFieldErrors(customFields, fieldErrors(err));
    }
  }
  const page = formPage(ctx, model, `Add a new ${model.verbose_name}`, objectForm(ctx, model, await labelled(ctx, req, model, echo(model, form, {}, customFields)), refused, { action: `${listPath(model)}add/`, submit: 'Create', customFields }), [['Add']]);
  return sendHtml(reply, 400, page);
}

export async function editPage(ctx: PageContext, req: FastifyRequest, model: ResolvedModel, key: string): Promise<string> {
  const obj = await readOne(ctx.services, pageRequest(req, model, 'detail'), model, key);
  const customFields = await formCustomFields(ctx.services, model);
  const form = objectForm(ctx, model, obj, {}, { action: `${detailPath(model, String(obj.id))}edit/`, submit: 'Save', customFields });
  return formPage(ctx, model, `Edit ${String(obj.display)}`, form, [[String(obj.display), detailPath(model, String(obj.id))], ['Edit']]);
}

/** POST edit/: the fields shown are written (PATCH semantics); refused -> the form again with the errors at the fields. */
export async function submitEdit(ctx: PageContext, req: FastifyRequest, reply: FastifyReply, model: ResolvedModel, key: string) {
  const obj = await readOne(ctx.services, pageRequest(req, model, 'detail'), model, key);
  const form = req.body as FormBody;
  const customFields = await formCustomFields(ctx.services, model);
  const { body, errors } = formToBody(model, form, { creating: false, customFields });
  let refused = errors;
  if (Object.keys(errors).length === 0) {
    try {
      await updateObject(ctx.services, pageRequest(req, model, 'edit'), model, String(obj.id), new Map(), body, true);
      return seeOther(reply, detailPath(model, String(obj.id)));
    } catch (err) {
      if (!(err instanceof AppError) || err.status !== 400) throw err;
      refused = placeCustomFieldErrors(customFields, fieldErrors(err));
    }
  }
  const page = formPage(ctx, model, `Edit ${String(obj.display)}`, objectForm(ctx, model, await labelled(ctx, req, model, echo(model, form, obj, customFields)), refused, { action: `${detailPath(model, String(obj.id))}edit/`, submit: 'Save', customFields }), [[String(obj.display), detailPath(model, String(obj.id))], ['Edit']]);
  return sendHtml(reply, 400, page);
}

export async function deletePage(ctx: PageContext, req: FastifyRequest, model: ResolvedModel, key: string, error?: string): Promise<string> {
  const obj = await readOne(ctx.services, pageRequest(req, model, 'detail'), model, key);
  const problem = error ? html`<div class="alert error" role="alert">${error}</div>` : '';
  const content = html`<h1>Delete ${String(obj.display)}?</h1>${problem}<form method="post" class="card">${csrfField(ctx)}<p>The ${model.verbose_name} <b>${String(obj.display)}</b> will be deleted (objects that belong to it go with it).</p><div class="actions"><button class="danger" type="submit">Delete</button><a class="btn" href="${detailPath(model, String(obj.id))}">Cancel</a></div></form>`;
  return layout(ctx, `Delete ${String(obj.display)}`, content, { crumbs: [[appLabel(model.app)], [capitalize(model.verbose_name_plural), listPath(model)], [String(obj.display), detailPath(model, String(obj.id))], ['Delete']] });
}

export async function submitDelete(ctx: PageContext, req: FastifyRequest, reply: FastifyReply, model: ResolvedModel, key: string) {
  try {
    await deleteObject(ctx.services, pageRequest(req, model, 'delete'), model, key, new Map());
  } catch (err) {
    if (!(err instanceof AppError) || (err.status !== 400 && err.status !== 409)) throw err;
    return sendHtml(reply, err.status, await deletePage(ctx, req, model, key, Object.values(fieldErrors(err)).flat().join(' ')));
  }
  return seeOther(reply, listPath(model));
}
