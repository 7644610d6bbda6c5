import { NotFoundError } from '../../core/errors.js';
import { CABLE_TERMINATION_TYPES } from '../../apps/dcim/cables/endpoints.js';
import { CableGraph } from '../../apps/dcim/cables/graph.js';
import { pick, renderNodes } from '../../apps/dcim/cables/render-nodes.js';
import { toSegments, traceFrom } from '../../apps/dcim/cables/trace.js';
import { getRow } from '../../ops/read.js';
import { html } from '../html.js';
import { appLabel, capitalize, detailPath, layout, listPath, type PageContext } from '../layout.js';
import { pageRequest } from '../model-data.js';
import { uiRoute } from '../page.js';
import { showValue } from '../values.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { PathNode } from '../../apps/dcim/cables/endpoints.js';
import type { Services } from '../../ops/services.js';

/** `/dcim/<termination>/<id>/trace/`: the cable path from a port or interface, segment by segment (near end, cable, far end). */
async function tracePage(ctx: PageContext, req: FastifyRequest): Promise<string> {
  const { path, key } = req.params as { path: string; key: string };
  const model = ctx.services.registry.byAppPath('dcim', path);
  if (!model || !CABLE_TERMINATION_TYPES.includes(model.id)) throw new NotFoundError('Page not found.');
  const row = await getRow(ctx.services, pageRequest(req, model, 'trace'), model, key, new Map(), 'view', ctx.services.dialect.db);
  const exec = ctx.services.dialect.db;
  const origin = { type: model.id, id: row.id };
  const all = toSegments(origin, await traceFrom(new CableGraph(ctx.services, exec), origin));
  const cut = all.findIndex((segment) => segment[0] === null);
  const segments = cut < 0 ? all : all.slice(0, cut);
  const rendered = await renderNodes(ctx.services, exec, segments.flat().filter((n): n is PathNode => n !== null), { depth: 0, baseUrl: '' });
  const show = (n: PathNode | null) => (n ? showValue(ctx.services, pick(rendered, n)) : html`<span class="muted">—</span>`);
  const rows = segments.map((s, i) => html`<tr><td>${i + 1}</td><td>${show(s[0])}</td><td>${show(s[1])}</td><td>${show(s[2])}</td></tr>`);
  const title = `Cable trace for ${String(row.name ?? row.id)}`;
  const content = html`<h1>${title}</h1><div class="table-wrap"><table><thead><tr><th scope="col">#</th><th scope="col">Near end</th><th scope="col">Cable</th><th scope="col">Far end</th></tr></thead><tbody>${rows.length ? rows : html`<tr><td colspan="4" class="muted">Not connected.</td></tr>`}</tbody></table></div>`;
  return layout(ctx, title, content, { crumbs: [[appLabel('dcim')], [capitalize(model.verbose_name_plural), listPath(model)], [String(row.name ?? row.id), detailPath(model, row.id)], ['Trace']] });
}

export function registerTraceView(app: FastifyInstance, services: Services): void {
  uiRoute(app, services, 'GET', '/dcim/:path/:key/trace/', tracePage);
}
