import { createObjects } from '../ops/crud.js';
import { filterSet } from '../ops/filters/filter-set.js';
import { columnChoices } from './columns.js';
import { formValue, type FormBody } from './form-body.js';
import { html, type Html } from './html.js';
import { appLabel, capitalize, csrfField, detailPath, layout, listPath, type PageContext } from './layout.js';
import { countReferences, pageRequest, readList, readOne, type Shown } from './model-data.js';
import { seeOther } from './page.js';
import { showValue } from './values.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ResolvedModel } from '../core/registry/types.js';
import type { Reference } from '../core/registry/registry.js';

/** Extra sections a domain view adds to a model's detail page (rack elevation, prefix hierarchy, ...). */
export type DetailExtra = (ctx: PageContext, req: FastifyRequest, model: ResolvedModel, obj: Shown) => Promise<Html>;
const extras = new Map<string, Set<DetailExtra>>();

/** Reverse relations (`<model id>.<field>`) a domain section shows itself, left out of the generic tables. */
const shownBySection = new Set<string>();

/** Adds a section to a model's detail page (once, however many apps a process builds); `replaces`: the reverse relations it shows. */
export function addDetailSection(modelId: string, section: DetailExtra, opts: { replaces?: string[] } = {}): void {
  extras.set(modelId, (extras.get(modelId) ?? new Set()).add(section));
  for (const ref of opts.replaces ?? []) shownBySection.add(ref);
}

const SEPARATE = new Set(['custom_fields', 'tags', 'created', 'last_updated']);
const REVERSE_ROWS = 10;

function tabs(model: ResolvedModel, id: string, current: string): Html {
  const base = detailPath(model, id);
  const items: [string, string][] = [['', capitalize(model.verbose_name)], ['notes/', 'Notes'], ['changelog/', 'Change log'], ['advanced/', 'Advanced']];
  return html`<nav class="tabs" aria-label="Object views">${items.map(([path, label]) => html`<a href="${base}${path}"${path === current ? html` aria-current="page"` : ''}>${label}</a>`)}</nav>`;
}

function header(ctx: PageContext, model: ResolvedModel, obj: Shown, current: string): Html {
  const id = String(obj.id);
  const buttons = model.read_only ? '' : html`<a class="btn" href="${detailPath(model, id)}edit/">Edit</a><a class="btn danger" href="${detailPath(model, id)}delete/">Delete</a>`;
  return html`<h1>${String(obj.display ?? id)}</h1><div class="actions">${buttons}<a class="btn" href="/api/${model.app}/${model.path}/${id}/">API</a></div>${tabs(model, id, current)}`;
}

function crumbsFor(model: ResolvedModel, obj: Shown) {
  return [[appLabel(model.app)], [capitalize(model.verbose_name_plural), listPath(model)], [String(obj.display ?? obj.id)]] as const;
}

function attributes(ctx: PageContext, model: ResolvedModel, obj: Shown): Html {
  const rows = columnChoices(model).filter((f) => !SEPARATE.has(f.name)).map((f) => html`<tr><th scope="row">${f.label}</th><td>${showValue(ctx.services, obj[f.name])}</td></tr>`);
  return html`<section class="card"><h2>${capitalize(model.verbose_name)}</h2><table class="attrs">${rows}</table></section>`;
}

function keyValues(ctx: PageContext, title: string, values: Record<string, unknown> | undefined): Html {
  const entries = Object.entries(values ?? {});
  if (entries.length === 0) return html``;
  return html`<section class="card"><h2>${title}</h2><table class="attrs">${entries.map(([k, v]) => html`<tr><th scope="row">${k}</th><td>${showValue(ctx.services, v)}</td></tr>`)}</table></section>`;
}

function relationships(ctx: PageContext, obj: Shown): Html {
  const rels = Object.values((obj.relationships ?? {}) as Record<string, any>);
  if (rels.length === 0) return html``;
  const rows = rels.flatMap((r) => ['source', 'destination', 'peer'].filter((side) => r[side]?.objects).map((side) => html`<tr><th scope="row">${r.label} (${side})</th><td>${showValue(ctx.services, r[side].objects)}</td></tr>`));
  return html`<section class="card"><h2>Relationships</h2><table class="attrs">${rows}</table></section>`;
}

function tags(ctx: PageContext, model: ResolvedModel, obj: Shown): Html {
  if (!model.fieldMap.has('tags')) return html``;
  return html`<section class="card"><h2>Tags</h2>${showValue(ctx.services, obj.tags)}</section>`;
}

/** Other models' foreign keys to this one that the list filters can follow (a device's interfaces, a location's racks). */
function reverseReferences(ctx: PageContext, model: ResolvedModel): Reference[] {
  return ctx.services.registry.referencesTo(model.id).filter((r) => r.field.kind === 'fk' && !r.model.internal && r.model.id !== 'extras.objectchange' && filterSet(r.model).has(r.field.name) && !shownBySection.has(`${r.model.id}.${r.field.name}`));
}

async function reverseTable(ctx: PageContext, req: FastifyRequest, ref: Reference, id: string): Promise<Html> {
  const params = new Map([[ref.field.name, [id]]]);
  const { count, results } = await readList(ctx.services, pageRequest(req, ref.model, 'list'), ref.model, params, { limit: REVERSE_ROWS, offset: 0, depth: 0 });
  const all = `${listPath(ref.model)}?${ref.field.name}=${encodeURIComponent(id)}`;
  const title = `${capitalize(ref.model.verbose_name_plural)}${ref.field.name === ref.model.fieldMap.get(ref.field.name)?.name && ref.model.fields.filter((f) => f.to === ref.field.to).length > 1 ? ` (${ref.field.label})` : ''}`;
  return html`<section class="card"><h2>${title} <span class="badge">${count}</span></h2><ul class="plain">${results.map((r) => html`<li><a href="${detailPath(ref.model, String(r.id))}">${String(r.display ?? r.id)}</a></li>`)}</ul>${count > REVERSE_ROWS ? html`<p><a href="${all}">All ${count} ${ref.model.verbose_name_plural}</a></p>` : html`<p><a href="${all}">View as list</a></p>`}</section>`;
}

/** Tables of the objects referencing this one: one statement counts them all, only the non-empty ones are read (through the list filter). */
async function reverseTables(ctx: PageContext, req: FastifyRequest, model: ResolvedModel, id: string): Promise<Html> {
  const refs = reverseReferences(ctx, model);
  const counts = await countReferences(ctx.services, req, refs, id);
  const tables: Html[] = [];
  for (const [i, ref] of refs.entries()) {
    if (counts[i]) tables.push(await reverseTable(ctx, req, ref, id));
  }
  return html`${tables}`;
}

/** The detail page: every field, related objects as links, tags, custom fields, relationships, reverse relations, domain sections. */
export async function detailPage(ctx: PageContext, req: FastifyRequest, model: ResolvedModel, key: string): Promise<string> {
  const obj = await readOne(ctx.services, pageRequest(req, model, 'detail'), model, key);
  const sections: Html[] = [];
  for (const section of extras.get(model.id) ?? []) sections.push(await section(ctx, req, model, obj));
  const side = html`${tags(ctx, model, obj)}${keyValues(ctx, 'Custom fields', obj.custom_fields)}${relationships(ctx, obj)}${keyValues(ctx, 'Computed fields', obj.computed_fields)}`;
  const content = html`${header(ctx, model, obj, '')}<div class="row"><div class="grow">${attributes(ctx, model, obj)}${sections}</div><div class="side">${side}${await reverseTables(ctx, req, model, String(obj.id))}</div></div>`;
  return layout(ctx, String(obj.display ?? obj.id), content, { crumbs: crumbsFor(model, obj) });
}

/** Notes or changes recorded for an object (objects with integer ids have none: those fields hold UUIDs). */
async function objectRecords(ctx: PageContext, req: FastifyRequest, model: ResolvedModel, records: ResolvedModel, field: string, id: string, limit: number) {
  if (model.id_type === 'integer') return { count: 0, results: [] as Shown[] };
  return readList(ctx.services, pageRequest(req, records, 'list'), records, new Map([[field, [id]]]), { limit, offset: 0, depth: 0 });
}

/** Notes tab: the object's notes and a form to add one. */
export async function notesPage(ctx: PageContext, req: FastifyRequest, model: ResolvedModel, key: string): Promise<string> {
  const obj = await readOne(ctx.services, pageRequest(req, model, 'detail'), model, key);
  const noteModel = ctx.services.registry.get('extras.note');
  const { results } = await objectRecords(ctx, req, model, noteModel, 'assigned_object_id', String(obj.id), 200);
  const list = results.length === 0 ? html`<p class="muted">No notes yet.</p>` : html`${results.map((n) => html`<article class="card"><p class="muted">${String(n.user_name)} · ${String(n.created ?? '')}</p><p>${String(n.note)}</p></article>`)}`;
  const form = model.features.has('notes') ? html`<form method="post" class="card">${csrfField(ctx)}<label for="id_note">Add a note</label><textarea id="id_note" name="note" required></textarea><p><button class="primary" type="submit">Add note</button></p></form>` : '';
  return layout(ctx, `${String(obj.display)} notes`, html`${header(ctx, model, obj, 'notes/')}${form}${list}`, { crumbs: crumbsFor(model, obj) });
}

export async function addNote(ctx: PageContext, req: FastifyRequest, reply: FastifyReply, model: ResolvedModel, key: string) {
  const obj = await readOne(ctx.services, pageRequest(req, model, 'detail'), model, key);
  const noteModel = ctx.services.registry.get('extras.note');
  await createObjects(ctx.services, pageRequest(req, noteModel, 'add'), noteModel, { assigned_object_type: model.id, assigned_object_id: obj.id, note: formValue(req.body as FormBody, 'note') });
  return seeOther(reply, `${detailPath(model, String(obj.id))}notes/`);
}

/** Change log tab: the object's changes, newest first, each linking to its diff. */
export async function changelogPage(ctx: PageContext, req: FastifyRequest, model: ResolvedModel, key: string): Promise<string> {
  const obj = await readOne(ctx.services, pageRequest(req, model, 'detail'), model, key);
  const changes = ctx.services.registry.get('extras.objectchange');
  const { results } = await objectRecords(ctx, req, model, changes, 'changed_object_id', String(obj.id), 100);
  const rows = results.map((c) => html`<tr><td><a href="${detailPath(changes, String(c.id))}">${String(c.time)}</a></td><td>${String(c.user_name)}</td><td>${showValue(ctx.services, c.action)}</td><td>${String(c.object_repr)}</td></tr>`);
  const table = html`<div class="table-wrap"><table><thead><tr><th scope="col">Time</th><th scope="col">User</th><th scope="col">Action</th><th scope="col">Object</th></tr></thead><tbody>${rows.length ? rows : html`<tr><td colspan="4" class="muted">No changes recorded.</td></tr>`}</tbody></table></div>`;
  return layout(ctx, `${String(obj.display)} changes`, html`${header(ctx, model, obj, 'changelog/')}${table}`, { crumbs: crumbsFor(model, obj) });
}

/** Advanced tab: id, natural key, natural slug, timestamps, the API URL. */
export async function advancedPage(ctx: PageContext, req: FastifyRequest, model: ResolvedModel, key: string): Promise<string> {
  const obj = await readOne(ctx.services, pageRequest(req, model, 'detail'), model, key);
  const naturalKey = model.natural_key.map((k) => html`<tr><th scope="row">Natural key: ${k}</th><td>${showValue(ctx.services, obj[k] ?? null)}</td></tr>`);
  const rows = html`<tr><th scope="row">ID</th><td><code>${String(obj.id)}</code></td></tr><tr><th scope="row">Object type</th><td><code>${String(obj.object_type ?? model.id)}</code></td></tr>${naturalKey}<tr><th scope="row">Natural slug</th><td><code>${String(obj.natural_slug ?? '')}</code></td></tr><tr><th scope="row">Created</th><td>${showValue(ctx.services, obj.created)}</td></tr><tr><th scope="row">Last updated</th><td>${showValue(ctx.services, obj.last_updated)}</td></tr><tr><th scope="row">API</th><td><a href="/api/${model.app}/${model.path}/${String(obj.id)}/">/api/${model.app}/${model.path}/${String(obj.id)}/</a></td></tr>`;
  return layout(ctx, `${String(obj.display)} advanced`, html`${header(ctx, model, obj, 'advanced/')}<section class="card"><h2>Advanced</h2><table class="attrs">${rows}</table></section>`, { crumbs: crumbsFor(model, obj) });
}
