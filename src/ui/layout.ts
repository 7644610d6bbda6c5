import { html, type Html } from './html.js';
import type { ResolvedModel } from '../core/registry/types.js';
import type { Actor, Services } from '../ops/services.js';

/** What every page needs: the services, the logged-in user, the CSRF token for its forms. */
export type PageContext = { services: Services; actor: Actor; csrf: string; url: URL };

const APP_LABELS: Record<string, string> = { dcim: 'DCIM', ipam: 'IPAM' };

export function appLabel(app: string): string {
  return APP_LABELS[app] ?? app.charAt(0).toUpperCase() + app.slice(1);
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The model's pages live at the reference's paths: /<app>/<path>/. */
export function listPath(model: ResolvedModel): string {
  return `/${model.app}/${model.path}/`;
}

export function detailPath(model: ResolvedModel, id: string): string {
  return `${listPath(model)}${encodeURIComponent(id)}/`;
}

/** Models that have pages (served by the API), grouped by app in registry order. */
export function browsableModels(services: Services): Map<string, ResolvedModel[]> {
  const out = new Map<string, ResolvedModel[]>();
  for (const model of services.registry.models) {
    if (model.internal) continue;
    out.set(model.app, [...(out.get(model.app) ?? []), model]);
  }
  return out;
}

function navigation(services: Services): Html {
  const groups = [...browsableModels(services)].map(([app, models]) => html`<details><summary>${appLabel(app)}</summary><ul>${models.map((m) => html`<li><a href="${listPath(m)}">${capitalize(m.verbose_name_plural)}</a></li>`)}</ul></details>`);
  return html`<nav class="apps" aria-label="Applications">${groups}</nav>`;
}

/** A hidden field carrying the CSRF token (every form that posts). */
export function csrfField(ctx: { csrf: string }): Html {
  return html`<input type="hidden" name="csrfmiddlewaretoken" value="${ctx.csrf}">`;
}

export type Crumb = readonly [label: string, href?: string];

function crumbs(items: readonly Crumb[]): Html {
  if (items.length === 0) return html``;
  return html`<nav aria-label="Breadcrumb"><ol class="crumbs">${items.map(([label, href]) => (href ? html`<li><a href="${href}">${label}</a></li>` : html`<li>${label}</li>`))}</ol></nav>`;
}

/** The whole document around a page's content. */
export function layout(ctx: PageContext, title: string, content: Html, opts: { crumbs?: readonly Crumb[]; notice?: string } = {}): string {
  const q = ctx.url.pathname === '/search/' ? ctx.url.searchParams.get('q') ?? '' : '';
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Inventory</title>
<link rel="stylesheet" href="/static/ui/ui.css">
<script src="/static/ui/ui.js" defer></script>
</head>
<body>
<a class="skip" href="#content">Skip to content</a>
<header class="top">
<a class="brand" href="/">Inventory</a>
${navigation(ctx.services)}
<form class="search" role="search" action="/search/" method="get"><label class="skip" for="global-q">Search everything</label><input id="global-q" type="search" name="q" placeholder="Search" value="${q}"><button type="submit">Search</button></form>
<div class="user"><a href="/extras/object-changes/">Changes</a><a href="/api/docs/">API</a><a href="/graphql/">GraphiQL</a><a href="/user/profile/">${ctx.actor.username}</a><form method="post" action="/logout/">${csrfField(ctx)}<button class="small" type="submit">Log out</button></form></div>
</header>
<main id="content">
${crumbs(opts.crumbs ?? [])}
${opts.notice ? html`<div class="alert ok" role="status">${opts.notice}</div>` : ''}
${content}
</main>
</body>
</html>
`.text;
}
