import { MethodNotAllowedError } from '../core/errors.js';
import { sendJson } from '../api/crud/respond.js';
import { queryParams, requestGeneration, toRequestContext } from '../api/request-context.js';
import { runGraphql } from './execute.js';
import { GRAPHQL_DOC } from './openapi.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../ops/services.js';
import type { GraphqlRequest } from './execute.js';

export const GRAPHQL_PATH = '/api/graphql/';
const ALLOW = 'POST, OPTIONS';

/** A body as the endpoint received it: JSON text (parsed by the handler, as the reference words its error), a GraphQL document, or anything else. */
type RawBody = { json?: string; graphql?: string } | undefined;

class InvalidJson extends Error {}

/**
 * The request's `query`, `variables` and `operationName`, as the reference's view reads them:
 * from the query string first, else from a JSON body or an `application/graphql` body; any
 * other body counts as none.
 */
function readRequest(req: FastifyRequest): GraphqlRequest {
  const body = req.body as RawBody;
  let data: Record<string, unknown> = {};
  if (body?.graphql !== undefined) data = { query: body.graphql };
  else if (body?.json !== undefined && body.json.trim() !== '') {
    try {
      const parsed: unknown = JSON.parse(body.json);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) data = parsed as Record<string, unknown>;
    } catch {
      throw new InvalidJson();
    }
  }
  const params = queryParams(req);
  const pick = (name: string) => params.get(name)?.[0] || data[name];
  return { query: pick('query'), variables: pick('variables'), operationName: pick('operationName') };
}

async function handlePost(services: Services, req: FastifyRequest, reply: FastifyReply) {
  let request: GraphqlRequest;
  try {
    request = readRequest(req);
  } catch (err) {
    if (!(err instanceof InvalidJson)) throw err;
    return sendJson(reply.header('API-Version', req.apiVersion), 400, { errors: [{ message: 'Request body contained Invalid JSON.' }] });
  }
  const rc = toRequestContext(req, 'graphql-api');
  const { status, body } = await runGraphql(services, rc, request, { generation: requestGeneration(services.dialect, req) });
  return sendJson(reply.header('API-Version', req.apiVersion), status, body);
}

async function handle(services: Services, req: FastifyRequest, reply: FastifyReply) {
  reply.header('Allow', ALLOW);
  if (req.method === 'POST') return handlePost(services, req, reply);
  if (req.method === 'OPTIONS') {
    return sendJson(reply, 200, { name: 'Graph QLDRFAPI', description: 'Read the database with a GraphQL query: POST `query`, optional `variables` and `operationName`.', renders: ['application/json', 'text/html', 'text/csv'], parses: ['application/json', 'text/csv'] });
  }
  throw new MethodNotAllowedError(req.method, ALLOW);
}

/**
 * `POST /api/graphql/`: the read API over every served model (token or session authentication
 * as the rest of /api/, any authenticated user; each list narrowed to what the caller may see).
 * Its bodies are read in this scope only: JSON kept as text (the reference words its own error),
 * `application/graphql` documents, and any other type ignored, as the reference ignores it.
 */
export function registerGraphqlRoutes(app: FastifyInstance, services: Services): void {
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 16 * 1024 * 1024 }, (_req, body, done) => done(null, { json: String(body) }));
    scope.addContentTypeParser('application/graphql', { parseAs: 'string', bodyLimit: 16 * 1024 * 1024 }, (_req, body, done) => done(null, { graphql: String(body) }));
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 16 * 1024 * 1024 }, (_req, _body, done) => done(null, undefined));
    scope.route({ method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'], url: GRAPHQL_PATH, config: { openapi: GRAPHQL_DOC }, handler: (req, reply) => handle(services, req, reply) });
  });
}
