import { MethodNotAllowedError, NotFoundError } from '../core/errors.js';
import { toRowId } from '../core/registry/row-id.js';
import { requirePermission } from '../ops/permissions.js';
import { notFound } from '../ops/read.js';
import { sendJson } from '../api/crud/respond.js';
import { requestGeneration, toRequestContext } from '../api/request-context.js';
import { runGraphql } from './execute.js';
import { RUN_DOC } from './openapi.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Action } from '../ops/permissions.js';
import type { Services } from '../ops/services.js';

/**
 * `POST /api/extras/graphql-queries/{id}/run/`: runs a saved query with the body's `variables`,
 * as the reference's `run` action: the caller needs the add permission on saved queries (the
 * action's POST), the query is found by id alone, and the answer is 200 with `errors` and/or
 * `data` once it parsed (400 with `errors` when its text does not).
 */
async function runSaved(services: Services, req: FastifyRequest, reply: FastifyReply) {
  const model = services.registry.get('extras.graphqlquery');
  if (req.actor) requirePermission(services, req.actor, 'add', model);
  const { key } = req.params as { key: string };
  const id = toRowId(model, key);
  if (!id) throw new NotFoundError();
  const row = await services.store.byId(services.dialect.db, model, id);
  if (!row) throw notFound(model);
  const body = req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
  const rc = toRequestContext(req, 'extras-api:graphqlquery-run');
  const result = await runGraphql(services, rc, { query: row.query, variables: body.variables ?? null }, { generation: requestGeneration(services.dialect, req) });
  return sendJson(reply, result.phase === 'syntax' ? 400 : 200, result.body);
}

const ACTIONS: Record<string, Action> = { GET: 'view', HEAD: 'view', PUT: 'change', PATCH: 'change', DELETE: 'delete' };

/** Other methods: the permission their verb needs first (403), then 405, as the reference's action route answers. */
function refuse(services: Services, req: FastifyRequest): never {
  const action = ACTIONS[req.method];
  if (action && req.actor) requirePermission(services, req.actor, action, services.registry.get('extras.graphqlquery'));
  throw new MethodNotAllowedError(req.method, 'POST, OPTIONS');
}

export function registerSavedQueryRoutes(app: FastifyInstance, services: Services): void {
  app.route({
    method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/api/extras/graphql-queries/:key/run/',
    config: { openapi: RUN_DOC },
    handler: (req, reply) => (req.method === 'POST' ? runSaved(services, req, reply) : refuse(services, req)),
  });
}
