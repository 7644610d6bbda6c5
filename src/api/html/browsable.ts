import { STATUS_CODES } from 'node:http';
import { acceptInfo } from '../plugins/versioning.js';
import { requestUrl } from '../request-context.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

const URL_RE = /^https?:\/\/[^\s"<>]+$/;

function renderString(value: string): string {
  const quoted = escapeHtml(JSON.stringify(value));
  return URL_RE.test(value) ? `<a href="${escapeHtml(value)}">${quoted}</a>` : `<span class="s">${quoted}</span>`;
}

/** A JSON value as indented HTML; URL strings become links, everything else is escaped. */
export function renderJsonHtml(value: unknown, indent = ''): string {
  const inner = `${indent}    `;
  if (typeof value === 'string') return renderString(value);
  if (value === null || typeof value !== 'object') return `<span class="l">${escapeHtml(JSON.stringify(value) ?? 'null')}</span>`;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => inner + renderJsonHtml(v, inner)).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return '{}';
  const lines = entries.map(([k, v]) => `${inner}<span class="k">${escapeHtml(JSON.stringify(k))}</span>: ${renderJsonHtml(v, inner)}`);
  return `{\n${lines.join(',\n')}\n${indent}}`;
}

/** Links to each level of the path: Api Root / Dcim / Locations. */
function breadcrumbs(pathname: string): string {
  const parts = pathname.split('/').filter(Boolean);
  return parts.map((part, i) => {
    const href = `/${parts.slice(0, i + 1).join('/')}/`;
    const label = i === 0 ? 'API Root' : part.replace(/[-_]/g, ' ').replace(/^\w/, (c) => c.toUpperCase());
    return i === parts.length - 1 ? `<li>${escapeHtml(label)}</li>` : `<li><a href="${escapeHtml(href)}">${escapeHtml(label)}</a></li>`;
  }).join('');
}

const STYLE = 'body{font-family:system-ui,sans-serif;margin:0;color:#222}header{background:#1d3557;color:#fff;padding:.6rem 1rem}header a{color:#fff}'
  + 'main{padding:1rem}ul.crumbs{list-style:none;padding:0;display:flex;gap:.4rem}ul.crumbs li+li:before{content:"/ "}'
  + 'pre{background:#f6f8fa;padding:1rem;overflow:auto}.k{color:#6f42c1}.s{color:#0a7f3f}.l{color:#b35900}nav.formats a{margin-right:1rem}';

/** Response headers the page shows, with their display names. */
const SHOWN_HEADERS: Record<string, string> = { allow: 'Allow', 'api-version': 'API-Version', 'content-type': 'Content-Type', vary: 'Vary' };

type Page = { method: string; url: URL; status: number; headers: Record<string, string>; body: unknown };

/** The browsable page: request line, response status and headers, the JSON with links. */
export function renderBrowsablePage(page: Page): string {
  const shown = Object.entries(SHOWN_HEADERS).filter(([h]) => page.headers[h]).map(([h, name]) => `${name}: ${page.headers[h]}`);
  const status = `HTTP ${page.status} ${STATUS_CODES[page.status] ?? ''}`;
  const title = page.url.pathname.split('/').filter(Boolean).slice(1).join(' / ') || 'API Root';
  const json = new URL(page.url);
  json.searchParams.set('format', 'json');
  return `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body>
<header><a href="/api/">REST API</a> · <a href="/api/docs/">API documentation</a></header>
<main>
<ul class="crumbs">${breadcrumbs(page.url.pathname)}</ul>
<h1>${escapeHtml(title)}</h1>
<nav class="formats"><a href="${escapeHtml(json.pathname + json.search)}">json</a></nav>
<pre class="request"><b>${escapeHtml(page.method)}</b> ${escapeHtml(page.url.pathname + page.url.search)}</pre>
<pre class="response"><b>${escapeHtml(status)}</b>
${shown.map(escapeHtml).join('\n')}

${renderJsonHtml(page.body)}</pre>
</main>
</body>
</html>
`;
}

/** `?format=api`, or (without `format`) a first Accept range of `text/html`, as a browser sends. */
function wantsHtml(req: FastifyRequest): boolean {
  const format = req.url.includes('?') ? requestUrl(req).searchParams.get('format') : null;
  if (format) return format === 'api';
  return acceptInfo(req).leading === 'text/html';
}

function toHtml(req: FastifyRequest, reply: FastifyReply, payload: string): string {
  const headers = Object.fromEntries(Object.entries(reply.getHeaders()).map(([k, v]) => [k.toLowerCase(), String(v)]));
  headers['content-type'] = 'application/json';
  const page = renderBrowsablePage({ method: req.method, url: new URL(req.url, 'http://x'), status: reply.statusCode, headers, body: JSON.parse(payload) });
  reply.header('content-type', 'text/html; charset=utf-8').header('Vary', 'Accept');
  return page;
}

/** A JSON response under /api/ to a browser as its HTML page; any other payload as it is. */
function htmlPage(req: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
  if (!req.url.startsWith('/api/') || !wantsHtml(req)) return payload;
  const text = Buffer.isBuffer(payload) ? payload.toString() : payload;
  if (typeof text !== 'string' || text === '') return payload;
  if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return payload;
  return toHtml(req, reply, text);
}

/**
 * The browsable API (api-behaviour.md section 13): a JSON response under /api/ to a browser
 * (`Accept: text/html`) or to `?format=api` is sent as a readable HTML page of the same data.
 */
export function registerBrowsable(app: FastifyInstance): void {
  app.addHook('onSend', (req, reply, payload, done) => done(null, htmlPage(req, reply, payload)));
}
