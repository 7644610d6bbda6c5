import { AppError } from '../core/errors.js';
import { createObjects, deleteObject } from '../ops/crud.js';
import { formValue, type FormBody } from './form-body.js';
import { fieldErrors } from './form-view.js';
import { html, type Html } from './html.js';
import { csrfField, layout, type PageContext } from './layout.js';
import { pageRequest, readList } from './model-data.js';
import { seeOther, sendHtml, uiRoute } from './page.js';
import { showValue } from './values.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RequestContext, Services } from '../ops/services.js';

/**
 * Every user manages their own tokens from the profile (as the reference's profile views allow),
 * whatever their object permissions: the token model's scope (apps/users) keeps them to their own.
 */
function ownTokens(ctx: PageContext, req: FastifyRequest, kind: string): RequestContext {
  const model = ctx.services.registry.get('users.token');
  const rc = pageRequest(req, model, kind);
  const grant = { object_types: ['users.token'], actions: ['view', 'add', 'change', 'delete'], constraints: null };
  return { ...rc, actor: rc.actor && { ...rc.actor, permissions: [...rc.actor.permissions, grant] } };
}

async function profile(ctx: PageContext, req: FastifyRequest, extra: { created?: string; error?: Html } = {}): Promise<string> {
  const model = ctx.services.registry.get('users.token');
  const { results } = await readList(ctx.services, ownTokens(ctx, req, 'list'), model, new Map(), { limit: 1000, offset: 0, depth: 0 });
  const rows = results.map((t) => html`<tr><td><code>…${String(t.key).slice(-6)}</code></td><td>${String(t.description ?? '')}</td><td>${showValue(ctx.services, t.write_enabled)}</td><td>${showValue(ctx.services, t.expires)}</td><td>${String(t.created ?? '')}</td><td><form method="post" action="/user/api-tokens/${String(t.id)}/delete/">${csrfField(ctx)}<button class="danger small" type="submit" aria-label="Revoke token ending ${String(t.key).slice(-6)}">Revoke</button></form></td></tr>`);
  const created = extra.created ? html`<div class="alert ok" role="status"><p>New token (shown only now; copy it):</p><p><code id="new-token">${extra.created}</code></p></div>` : '';
  const content = html`<h1>Profile</h1>
<section class="card"><h2>${ctx.actor.username}</h2><p>${ctx.actor.is_superuser ? 'Superuser' : 'User'}</p></section>
<section class="card"><h2>API tokens</h2>${created}${extra.error ?? ''}
<div class="table-wrap"><table><thead><tr><th scope="col">Key</th><th scope="col">Description</th><th scope="col">Write enabled</th><th scope="col">Expires</th><th scope="col">Created</th><th scope="col"><span class="skip">Actions</span></th></tr></thead><tbody>${rows.length ? rows : html`<tr><td colspan="6" class="muted">No tokens.</td></tr>`}</tbody></table></div>
<h3>Create a token</h3>
<form method="post" action="/user/api-tokens/add/" class="fields">${csrfField(ctx)}
<div class="field"><label for="id_description">Description</label><div><input id="id_description" name="description" maxlength="255"></div></div>
<div class="field"><label for="id_expires">Expires (optional, e.g. 2030-01-01T00:00:00Z)</label><div><input id="id_expires" name="expires"></div></div>
<div class="field"><label for="id_write_enabled">Write enabled</label><div><input type="checkbox" id="id_write_enabled" name="write_enabled" value="true" checked></div></div>
<div class="actions"><button class="primary" type="submit">Create token</button></div></form></section>`;
  return layout(ctx, 'Profile', content, { crumbs: [['Profile']] });
}

async function addToken(ctx: PageContext, req: FastifyRequest, reply: FastifyReply) {
  const form = req.body as FormBody;
  const model = ctx.services.registry.get('users.token');
  const body: Record<string, unknown> = { description: formValue(form, 'description'), write_enabled: formValue(form, 'write_enabled') === 'true' };
  if (formValue(form, 'expires')) body.expires = formValue(form, 'expires');
  try {
    const [row] = await createObjects(ctx.services, ownTokens(ctx, req, 'add'), model, body);
    return sendHtml(reply, 200, await profile(ctx, req, { created: String(row.key) }));
  } catch (err) {
    if (!(err instanceof AppError) || err.status !== 400) throw err;
    const messages = Object.entries(fieldErrors(err)).map(([k, v]) => `${k}: ${v.join(' ')}`);
    return sendHtml(reply, 400, await profile(ctx, req, { error: html`<div class="alert error" role="alert">${messages.join(' ')}</div>` }));
  }
}

async function revokeToken(ctx: PageContext, req: FastifyRequest, reply: FastifyReply) {
  const model = ctx.services.registry.get('users.token');
  await deleteObject(ctx.services, ownTokens(ctx, req, 'delete'), model, (req.params as { id: string }).id, new Map());
  return seeOther(reply, '/user/profile/');
}

/** /user/profile/: who is logged in, and their own API tokens (create, revoke). */
export function registerProfile(app: FastifyInstance, services: Services): void {
  uiRoute(app, services, 'GET', '/user/profile/', (ctx, req) => profile(ctx, req));
  uiRoute(app, services, 'GET', '/user/api-tokens/', async (_ctx, _req, reply) => seeOther(reply, '/user/profile/'));
  uiRoute(app, services, 'POST', '/user/api-tokens/add/', addToken);
  uiRoute(app, services, 'POST', '/user/api-tokens/:id/delete/', revokeToken);
}
