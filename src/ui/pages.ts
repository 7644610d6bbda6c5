import { html } from './html.js';
import { appLabel, browsableModels, capitalize, layout, listPath } from './layout.js';
import { registerDomainViews } from './domain/index.js';
import { registerModelPages } from './model-routes.js';
import { uiRoute } from './page.js';
import { registerProfile } from './profile.js';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../ops/services.js';

/** The home page: every model by application. */
function home(services: Services) {
  const apps = [...browsableModels(services)].map(([app, models]) => html`<section class="card"><h2>${appLabel(app)}</h2><ul class="plain">${models.map((m) => html`<li><a href="${listPath(m)}">${capitalize(m.verbose_name_plural)}</a></li>`)}</ul></section>`);
  return html`<h1>Inventory</h1><div class="row">${apps}</div>`;
}

export function registerPages(app: FastifyInstance, services: Services): void {
  uiRoute(app, services, 'GET', '/', async (ctx) => layout(ctx, 'Home', home(services)));
  registerModelPages(app, services);
  registerDomainViews(app, services);
  registerProfile(app, services);
}
