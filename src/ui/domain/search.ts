import { html, type Html } from '../html.js';
import { appLabel, capitalize, detailPath, layout, listPath, type PageContext } from '../layout.js';
import { countEach, pageRequest, readList } from '../model-data.js';
import { uiRoute } from '../page.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ResolvedModel } from '../../core/registry/types.js';
import type { Services } from '../../ops/services.js';

const PER_MODEL = 5;

/** Models the global search asks: those the apps list as searchable (as the reference's), with a quick search (`q`). */
function searchable(services: Services): ResolvedModel[] {
  return services.registry.searchable.filter((m) => m.search && !m.internal);
}

async function hits(ctx: PageContext, req: FastifyRequest, model: ResolvedModel, q: string): Promise<Html> {
  const { count, results } = await readList(ctx.services, pageRequest(req, model, 'list'), model, new Map([['q', [q]]]), { limit: PER_MODEL, offset: 0, depth: 0 });
  const all = `${listPath(model)}?q=${encodeURIComponent(q)}`;
  return html`<section class="card"><h2>${appLabel(model.app)} › ${capitalize(model.verbose_name_plural)} <span class="badge">${count}</span></h2><ul class="plain">${results.map((r) => html`<li><a href="${detailPath(model, String(r.id))}">${String(r.display ?? r.id)}</a></li>`)}</ul>${count > PER_MODEL ? html`<p><a href="${all}">All ${count} matching ${model.verbose_name_plural}</a></p>` : ''}</section>`;
}

/**
 * `/search/?q=`: the quick search of every searchable model, five objects each with a link to
 * all of them. One statement counts the matches of every model (leaving out those the user may
 * not view or whose search cannot take the term); only the models with matches are read.
 */
async function searchPage(ctx: PageContext, req: FastifyRequest): Promise<string> {
  const q = (ctx.url.searchParams.get('q') ?? '').trim();
  const sections: Html[] = [];
  if (q) {
    const models = searchable(ctx.services);
    const counts = await countEach(ctx.services, req, models.map((model) => ({ model, params: new Map([['q', [q]]]) })));
    for (const [i, model] of models.entries()) if (counts[i]) sections.push(await hits(ctx, req, model, q));
  }
  const body = !q ? html`<p class="muted">Type a name, an address, a serial number, ... in the search box.</p>` : sections.length ? html`<div class="row">${sections}</div>` : html`<p>Nothing matches <b>${q}</b>.</p>`;
  return layout(ctx, q ? `Search: ${q}` : 'Search', html`<h1>Search${q ? html`: <q>${q}</q>` : ''}</h1>${body}`, { crumbs: [['Search']] });
}

export function registerSearch(app: FastifyInstance, services: Services): void {
  uiRoute(app, services, 'GET', '/search/', searchPage);
}
