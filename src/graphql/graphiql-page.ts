import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requestGeneration, toRequestContext } from '../api/request-context.js';
import { sendJson } from '../api/crud/respond.js';
import { runGraphql } from './execute.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../ops/services.js';

/** Where scripts/build-graphiql.mjs writes the page's assets. */
const ASSETS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'graphiql');
const TYPES: Record<string, string> = { 'graphiql.js': 'text/javascript; charset=utf-8', 'graphiql.css': 'text/css; charset=utf-8' };

const PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>GraphiQL</title>
<link rel="stylesheet" href="/graphql/assets/graphiql.css">
<style>html, body, #graphiql { height: 100%; margin: 0; }</style>
</head>
<body>
<div id="graphiql">Loading GraphiQL…</div>
<script src="/graphql/assets/graphiql.js"></script>
</body>
</html>
`;

/** The web interface's login page, coming back to `next` (the reference's LoginRequiredMixin redirect). */
function toLogin(reply: FastifyReply, next: string): FastifyReply {
  return reply.code(302).header('Location', `/login/?next=${encodeURIComponent(next).replace(/%2F/g, '/')}`).header('content-type', 'text/html; charset=utf-8').send('');
}

/** Whether the request comes from a logged-in user (the shared auth plugin resolves sessions). */
function loggedIn(req: FastifyRequest): boolean {
  return !!req.actor && !req.actor.anonymous;
}

async function page(req: FastifyRequest, reply: FastifyReply) {
  if (!loggedIn(req)) return toLogin(reply, '/graphql/');
  if (!existsSync(join(ASSETS, 'graphiql.js'))) {
    return reply.code(503).header('content-type', 'text/plain; charset=utf-8').send('GraphiQL assets are not built: run `npm run build:graphiql` (it needs the dev dependencies).\n');
  }
  return reply.code(200).header('content-type', 'text/html; charset=utf-8').header('Cache-Control', 'no-store').send(PAGE);
}

/** The page's own POSTs (as the reference's view takes them): a query run for the session's user. */
async function post(services: Services, req: FastifyRequest, reply: FastifyReply) {
  if (!loggedIn(req)) return toLogin(reply, '/graphql/');
  const body = req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : {};
  const result = await runGraphql(services, toRequestContext(req, 'graphql'), { query: body.query, variables: body.variables, operationName: body.operationName }, { generation: requestGeneration(services.dialect, req) });
  return sendJson(reply, result.status, result.body);
}

async function asset(req: FastifyRequest, reply: FastifyReply) {
  const { file } = req.params as { file: string };
  const type = TYPES[file];
  if (!type || !existsSync(join(ASSETS, file))) return reply.code(404).header('content-type', 'text/plain; charset=utf-8').send('Not found.\n');
  return reply.code(200).header('content-type', type).header('Cache-Control', 'public, max-age=3600').send(readFileSync(join(ASSETS, file)));
}

/** `/graphql/`: GraphiQL for users logged in through the web interface, its assets served from dist/graphiql. */
export function registerGraphiqlPage(app: FastifyInstance, services: Services): void {
  app.get('/graphql/', page);
  app.post('/graphql/', (req, reply) => post(services, req, reply));
  app.get('/graphql/assets/:file', asset);
}
