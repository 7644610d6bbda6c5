import { NotFoundError } from '../core/errors.js';
import { addPage, deletePage, editPage, submitAdd, submitDelete, submitEdit } from './form-view.js';
import { bulkDeleteView, bulkEdit, importPage, submitImport } from './bulk-view.js';
import { addNote, advancedPage, changelogPage, detailPage, notesPage } from './detail-view.js';
import { listPage } from './list-view.js';
import { uiRoute, type PageHandler } from './page.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ResolvedModel } from '../core/registry/types.js';
import type { PageContext } from './layout.js';
import type { Services } from '../ops/services.js';

type ModelHandler = (ctx: PageContext, req: FastifyRequest, reply: FastifyReply, model: ResolvedModel, key: string) => ReturnType<PageHandler>;

/** The model a page's path names, or a 404 page. */
function pageModel(services: Services, app: string, req: FastifyRequest, writing: boolean): ResolvedModel {
  const model = services.registry.byAppPath(app, (req.params as { path: string }).path);
  if (!model || model.internal || (writing && model.read_only)) throw new NotFoundError('Page not found.');
  return model;
}

/**
 * Every model's pages at the reference's paths, from one implementation: `/<app>/<path>/`
 * (list), `add/`, `import/`, `edit/` and `delete/` (bulk, from a selection), `<id>/` (detail),
 * `<id>/edit/`, `<id>/delete/`, `<id>/notes/`, `<id>/changelog/`, `<id>/advanced/`.
 */
export function registerModelPages(app: FastifyInstance, services: Services): void {
  for (const appLabel of services.registry.apps) {
    const route = (method: 'GET' | 'POST', suffix: string, writing: boolean, handler: ModelHandler) => uiRoute(app, services, method, `/${appLabel}/:path/${suffix}`, (ctx, req, reply) => handler(ctx, req, reply, pageModel(services, appLabel, req, writing), (req.params as { key?: string }).key ?? ''));
    route('GET', '', false, (ctx, req, _r, model) => listPage(ctx, req, model));
    route('GET', 'add/', true, (ctx, req, _r, model) => addPage(ctx, req, model));
    route('POST', 'add/', true, (ctx, req, reply, model) => submitAdd(ctx, req, reply, model));
    route('GET', 'import/', true, (ctx, _q, _r, model) => importPage(ctx, model));
    route('POST', 'import/', true, (ctx, req, reply, model) => submitImport(ctx, req, reply, model));
    route('POST', 'edit/', true, (ctx, req, reply, model) => bulkEdit(ctx, req, reply, model));
    route('POST', 'delete/', true, (ctx, req, reply, model) => bulkDeleteView(ctx, req, reply, model));
    route('GET', ':key/', false, (ctx, req, _r, model, key) => detailPage(ctx, req, model, key));
    route('GET', ':key/edit/', true, (ctx, req, _r, model, key) => editPage(ctx, req, model, key));
    route('POST', ':key/edit/', true, (ctx, req, reply, model, key) => submitEdit(ctx, req, reply, model, key));
    route('GET', ':key/delete/', true, (ctx, req, _r, model, key) => deletePage(ctx, req, model, key));
    route('POST', ':key/delete/', true, (ctx, req, reply, model, key) => submitDelete(ctx, req, reply, model, key));
    route('GET', ':key/notes/', false, (ctx, req, _r, model, key) => notesPage(ctx, req, model, key));
    route('POST', ':key/notes/', false, (ctx, req, reply, model, key) => addNote(ctx, req, reply, model, key));
    route('GET', ':key/changelog/', false, (ctx, req, _r, model, key) => changelogPage(ctx, req, model, key));
    route('GET', ':key/advanced/', false, (ctx, req, _r, model, key) => advancedPage(ctx, req, model, key));
  }
}
