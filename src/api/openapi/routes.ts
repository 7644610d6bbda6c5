import { checkRouteDoc } from './app-paths.js';
import { getOpenApiDocument } from './document.js';
import { addDynamicFilters, loadDynamicFilterParameters } from './dynamic-filters.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiRoute } from './app-paths.js';
import type { DocumentSource } from './document.js';
import type { Services } from '../../ops/services.js';

type Format = { text: 'json' | 'yaml'; contentType: string };

const JSON_SCHEMA: Format = { text: 'json', contentType: 'application/vnd.oai.openapi+json' };
const YAML_SCHEMA: Format = { text: 'yaml', contentType: 'application/vnd.oai.openapi' };
/** `/api/swagger/?format=json` answers plain JSON, as the reference's second JSON renderer. */
const PLAIN_JSON: Format = { text: 'json', contentType: 'application/json' };

/** Three days, as the reference's schema view. */
const CACHE_CONTROL = `max-age=${3 * 24 * 60 * 60}, public`;

/**
 * Sends the schema for the request's API version, with the data-dependent filters that exist
 * now (`cf_<key>`, `cr_<key>__<side>`), and a weak ETag over it; a matching
 * `If-None-Match` gets 304 and no body (api-behaviour.md section 1).
 */
async function sendSchema(services: Services, source: DocumentSource, req: FastifyRequest, reply: FastifyReply, format: Format): Promise<FastifyReply> {
  const rendered = addDynamicFilters(getOpenApiDocument(source, req.apiVersion), await loadDynamicFilterParameters(services));
  reply.header('ETag', rendered.etag).header('Cache-Control', CACHE_CONTROL).header('Vary', 'Accept, Accept-Encoding');
  const match = String(req.headers['if-none-match'] ?? '').split(',').map((s) => s.trim());
  if (match.includes(rendered.etag)) return reply.code(304).send();
  const body = format.text === 'json' ? rendered.json : rendered.yaml();
  return reply.code(200).header('content-type', `${format.contentType}; charset=utf-8`).send(req.method === 'HEAD' ? '' : body);
}

/** `/api/swagger/` picks YAML unless JSON is asked for by `format` or `Accept`. */
function negotiate(req: FastifyRequest): Format {
  const format = new URL(req.url, 'http://x').searchParams.get('format');
  if (format === 'json') return PLAIN_JSON;
  const first = String(req.headers.accept ?? '').split(',')[0].split(';')[0].trim();
  if (!format && first === 'application/json') return PLAIN_JSON;
  if (!format && first === JSON_SCHEMA.contentType) return JSON_SCHEMA;
  return YAML_SCHEMA;
}

const sources = new WeakMap<FastifyInstance, DocumentSource>();

/** What the document of an application is built from (tests compare it with the document). */
export function getDocumentSource(app: FastifyInstance): DocumentSource {
  const source = sources.get(app);
  if (!source) throw new Error('registerOpenApi was not called on this application');
  return source;
}

/**
 * Collects every route registered after this call under /api/ with its `config.openapi`:
 * the extra endpoints of the apps describe themselves there. Generic routes (`:app`, `:path`)
 * are the registry's and are described from it.
 */
function collectRoutes(app: FastifyInstance, source: DocumentSource, routes: ApiRoute[]): void {
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || route.url.includes(':app') || route.url.includes(':path')) return;
    const doc = route.config?.openapi;
    if (doc) checkRouteDoc(source.registry, route.url, doc);
    routes.push({ url: route.url, doc });
  });
}

/**
 * The OpenAPI 3 schema, generated from the registry and cached per API version:
 * `/api/swagger.json`, `/api/swagger.yaml`, and `/api/swagger/` (YAML, or JSON with
 * `?format=json`). Authentication applies as for every /api/ path. Register before the apps'
 * extra routes, which it collects.
 */
export function registerOpenApi(app: FastifyInstance, services: Services): void {
  const routes: ApiRoute[] = [];
  const source: DocumentSource = { registry: services.registry, extensions: services.extensions, routes };
  sources.set(app, source);
  collectRoutes(app, source, routes);
  const methods: ['GET', 'HEAD'] = ['GET', 'HEAD'];
  app.route({ method: methods, url: '/api/swagger.json', handler: (req, reply) => sendSchema(services, source, req, reply, JSON_SCHEMA) });
  app.route({ method: methods, url: '/api/swagger.yaml', handler: (req, reply) => sendSchema(services, source, req, reply, YAML_SCHEMA) });
  app.route({ method: methods, url: '/api/swagger/', handler: (req, reply) => sendSchema(services, source, req, reply, negotiate(req)) });
}
