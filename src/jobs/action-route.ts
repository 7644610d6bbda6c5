import { MethodNotAllowedError } from '../core/errors.js';
import { requirePermission } from '../ops/permissions.js';
import { sendJson } from '../api/crud/respond.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteDoc } from '../api/openapi/route-doc.js';
import type { Action } from '../ops/permissions.js';
import type { Services } from '../ops/services.js';

type Handler = (services: Services, req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

export type ActionRoute = {
  url: string;
  /** The model whose permission a refused verb needs first (403 before 405), as the reference's action routes. */
  model: string;
  /** The view's name in OPTIONS (`Run`, `Variables`). */
  name: string;
  doc: RouteDoc;
  get?: Handler;
  post?: Handler;
  /** Media types the route takes (OPTIONS `parses`); JSON unless told. */
  parses?: string[];
};

const VERB_ACTION: Record<string, Action> = { GET: 'view', HEAD: 'view', POST: 'add', PUT: 'change', PATCH: 'change', DELETE: 'delete' };

/**
 * An extra endpoint of a detail path (`.../{id}/run/`): its verbs, `Allow` on every answer,
 * OPTIONS as DRF describes an action, and for other verbs their permission, then 405.
 */
export function registerActionRoute(app: FastifyInstance, services: Services, route: ActionRoute): void {
  const allow = [...(route.get ? ['GET', 'HEAD'] : []), ...(route.post ? ['POST'] : []), 'OPTIONS'].join(', ');
  app.route({
    method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    url: route.url,
    config: { openapi: route.doc },
    handler: (req, reply) => {
      reply.header('Allow', allow);
      if ((req.method === 'GET' || req.method === 'HEAD') && route.get) return route.get(services, req, reply);
      if (req.method === 'POST' && route.post) return route.post(services, req, reply);
      if (req.method === 'OPTIONS') return sendJson(reply, 200, { name: route.name, description: '', renders: ['application/json', 'text/html'], parses: route.parses ?? ['application/json'] });
      const action = VERB_ACTION[req.method];
      if (action && req.actor) requirePermission(services, req.actor, action, services.registry.get(route.model));
      throw new MethodNotAllowedError(req.method, allow);
    },
  });
}
