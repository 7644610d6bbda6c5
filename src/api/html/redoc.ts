import { createRequire } from 'node:module';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Where the ReDoc bundle is served from: outside /api/, so no token is needed to load it. */
export const REDOC_ASSETS = '/static/redoc/';
const ASSETS = new Set(['/redoc.standalone.js']);

/** Text safe inside a double-quoted HTML attribute. */
function attribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The schema URL the page loads, carrying the requested `api_version`. */
function schemaUrl(req: FastifyRequest): string {
  const version = new URL(req.url, 'http://x').searchParams.get('api_version');
  return version ? `/api/swagger.json?api_version=${encodeURIComponent(version)}` : '/api/swagger.json';
}

/** The ReDoc page: the OpenAPI document rendered read-only by the local bundle (no external calls). */
export function renderRedocPage(url: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API Documentation</title>
<style>body { margin: 0; padding: 0; }</style>
</head>
<body>
<redoc spec-url="${attribute(url)}"></redoc>
<script src="${REDOC_ASSETS}redoc.standalone.js"></script>
</body>
</html>
`;
}

/** `/api/redoc/`: the reference's second documentation page, ReDoc from the `redoc` package, served locally. */
export function registerRedoc(app: FastifyInstance): void {
  const root = path.join(path.dirname(createRequire(import.meta.url).resolve('redoc/package.json')), 'bundles');
  app.register(fastifyStatic, { root, prefix: REDOC_ASSETS, decorateReply: false, index: false, allowedPath: (p) => ASSETS.has(p) });
  app.route({
    method: ['GET', 'HEAD'],
    url: '/api/redoc/',
    handler: (req, reply) => reply.header('content-type', 'text/html; charset=utf-8').send(req.method === 'HEAD' ? '' : renderRedocPage(schemaUrl(req))),
  });
}
