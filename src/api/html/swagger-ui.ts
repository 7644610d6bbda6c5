import { createRequire } from 'node:module';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { requestUrl } from '../request-context.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Where the Swagger UI files are served from: outside /api/, so no token is needed to load them. */
export const SWAGGER_ASSETS = '/static/swagger-ui/';
const ASSETS = new Set(['/swagger-ui.css', '/swagger-ui-bundle.js', '/swagger-ui-standalone-preset.js', '/favicon-32x32.png', '/favicon-16x16.png']);

/** A JSON value safe to place inside a `<script>` element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

/** The schema URL the page loads, carrying the requested `api_version`. */
function schemaUrl(req: FastifyRequest): string {
  const version = new URL(req.url, 'http://x').searchParams.get('api_version');
  return version ? `/api/swagger.json?api_version=${encodeURIComponent(version)}` : '/api/swagger.json';
}

/**
 * Requests the page sends: an Authorize value without a scheme (the bare key) is sent as
 * `Token <key>`, the reference's scheme; a value that names one is sent as typed. A logged-in
 * browser's session cookie goes with every request; its CSRF token goes in `X-CSRFToken`.
 */
const REQUEST_INTERCEPTOR = `function (req) {
  var auth = req.headers && req.headers.Authorization;
  if (auth && !/^[A-Za-z]+\\s/.test(auth)) req.headers.Authorization = 'Token ' + auth;
  var csrf = document.cookie.match(/(?:^|;\\s*)csrftoken=([^;]+)/);
  if (csrf && req.headers) req.headers['X-CSRFToken'] = decodeURIComponent(csrf[1]);
  return req;
}`;

/** The Swagger UI page: local assets, no external calls (validator off), token authorization. */
export function renderSwaggerPage(url: string): string {
  const config = { url, dom_id: '#swagger-ui', deepLinking: true, displayOperationId: true, persistAuthorization: true, validatorUrl: null, layout: 'BaseLayout' };
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>API Documentation</title>
<link rel="stylesheet" href="${SWAGGER_ASSETS}swagger-ui.css">
<link rel="icon" type="image/png" href="${SWAGGER_ASSETS}favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${SWAGGER_ASSETS}swagger-ui-bundle.js"></script>
<script>
window.ui = SwaggerUIBundle(Object.assign(${scriptJson(config)}, { presets: [SwaggerUIBundle.presets.apis], requestInterceptor: ${REQUEST_INTERCEPTOR} }));
</script>
</body>
</html>
`;
}

/** `/api/docs/?format=openapi` -> 301 to the JSON schema (the reference keeps drf-yasg's URL). */
function redirectOpenApi(app: FastifyInstance): void {
  // Synchronous, reading the request's one parse of its URL (and none without a query): the hook runs for every request.
  app.addHook('onRequest', (req, reply, done) => {
    if (!req.url.includes('?')) return done();
    const url = requestUrl(req);
    if (url.pathname !== '/api/docs/' || url.searchParams.get('format') !== 'openapi') return done();
    const search = new URLSearchParams(url.searchParams);
    search.delete('format');
    const rest = search.toString();
    reply.code(301).header('Location', `/api/swagger.json${rest ? `?${rest}` : ''}`).send('');
  });
}

/**
 * The interactive reference at `/api/docs/` (Swagger UI from the swagger-ui-dist package,
 * served locally). Register before versioning: the `?format=openapi` redirect must run before
 * the format check refuses that value.
 */
export function registerApiDocs(app: FastifyInstance): void {
  const root = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  redirectOpenApi(app);
  app.register(fastifyStatic, { root, prefix: SWAGGER_ASSETS, decorateReply: false, index: false, allowedPath: (p) => ASSETS.has(p) });
  app.route({
    method: ['GET', 'HEAD'],
    url: '/api/docs/',
    handler: (req, reply) => reply.header('content-type', 'text/html; charset=utf-8').send(req.method === 'HEAD' ? '' : renderSwaggerPage(schemaUrl(req))),
  });
}
