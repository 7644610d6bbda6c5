import { MethodNotAllowedError } from '../../../core/errors.js';
import { sendJson } from '../../../api/crud/respond.js';
import { buildOptions } from '../../../api/metadata/options.js';
import { toRequestContext } from '../../../api/request-context.js';
import { getRow } from '../../../ops/read.js';
import { CABLE_TERMINATION_TYPES, PASS_THROUGH_TYPES, fromNodeText } from './endpoints.js';
import { CableGraph } from './graph.js';
import { pathsThrough } from './path-lookup.js';
import { pick, renderNodes } from './render-nodes.js';
import { toSegments, traceFrom } from './trace.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PathNode } from './endpoints.js';
import type { RouteDoc } from '../../../api/openapi/route-doc.js';
import type { ResolvedModel, Row } from '../../../core/registry/types.js';
import type { Services } from '../../../ops/services.js';

const ALLOW = 'GET, HEAD, OPTIONS';
const METHODS = ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

type Handler = (ctx: { services: Services; model: ResolvedModel; row: Row; baseUrl: string }) => Promise<unknown>;

/**
 * `trace/`: the path from this termination as (near end, cable, far end) segments, each object
 * rendered as its own endpoint renders it at depth 0, ending before a segment without a near
 * end (a loose rear port; reference `PathEndpointMixin`).
 */
const trace: Handler = async ({ services, model, row, baseUrl }) => {
  const exec = services.dialect.db;
  const origin = { type: model.id, id: row.id };
  const all = toSegments(origin, await traceFrom(new CableGraph(services, exec), origin));
  const cut = all.findIndex((segment) => segment[0] === null);
  const segments = cut < 0 ? all : all.slice(0, cut);
  const rendered = await renderNodes(services, exec, segments.flat().filter((n): n is PathNode => n !== null), { depth: 0, baseUrl });
  return segments.map((segment) => segment.map((n) => pick(rendered, n)));
};

/** `paths/`: every stored cable path running through this pass-through port (reference `PassThroughPortMixin`). */
const paths: Handler = async ({ services, model, row, baseUrl }) => {
  const exec = services.dialect.db;
  const found = await pathsThrough({ services, exec }, [{ type: model.id, id: row.id }]);
  const ends = (p: Row, side: 'origin' | 'destination'): PathNode[] => (p[`${side}_type`] ? [{ type: String(p[`${side}_type`]), id: String(p[`${side}_id`]) }] : []);
  const nodesOf = (p: Row) => (Array.isArray(p.path) ? p.path.map((n) => fromNodeText(String(n))) : []);
  const all = found.flatMap((p) => [...ends(p, 'origin'), ...ends(p, 'destination'), ...nodesOf(p)]);
  const rendered = await renderNodes(services, exec, all, { depth: 0, baseUrl });
  return found.map((p) => ({
    id: p.id,
    origin_type: p.origin_type,
    origin: pick(rendered, ends(p, 'origin')[0]),
    destination_type: p.destination_type ?? null,
    destination: pick(rendered, ends(p, 'destination')[0]),
    path: nodesOf(p).map((n) => pick(rendered, n)),
    is_active: p.is_active,
    is_split: p.is_split,
  }));
};

const NODE = { type: 'object', nullable: true, additionalProperties: true, description: 'An object of the path as its own endpoint renders it at depth 0.' };
const CABLE_PATH = {
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' },
    origin_type: { type: 'string' },
    origin: NODE,
    destination_type: { type: 'string', nullable: true },
    destination: NODE,
    path: { type: 'array', items: NODE },
    is_active: { type: 'boolean' },
    is_split: { type: 'boolean' },
  },
};

/** The OpenAPI descriptions of `trace/` and `paths/` (src/api/openapi/route-doc.ts). */
const DOCS: Record<'trace' | 'paths', RouteDoc> = {
  trace: { get: { summary: 'Trace the cable path from this termination: (near end, cable, far end) segments.', errors: [404], ok: [200, { schema: { type: 'array', items: { type: 'array', minItems: 3, maxItems: 3, items: NODE } } }] } },
  paths: { get: { summary: 'Every cable path running through this pass-through port.', errors: [404], ok: [200, { schema: { type: 'array', items: CABLE_PATH } }] } },
};

function route(app: FastifyInstance, services: Services, model: ResolvedModel, action: 'trace' | 'paths', handler: Handler): void {
  app.route({
    method: [...METHODS],
    url: `/api/${model.app}/${model.path}/:key/${action}/`,
    config: { openapi: DOCS[action] },
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
      reply.header('Allow', ALLOW);
      if (req.method === 'OPTIONS') return sendJson(reply, 200, buildOptions(services, model, { actor: req.actor, detail: true, writeEnabled: true }));
      if (req.method !== 'GET' && req.method !== 'HEAD') throw new MethodNotAllowedError(req.method, ALLOW);
      const rc = toRequestContext(req, `${model.app}-api:${model.model}-${action}`);
      const row = await getRow(services, rc, model, (req.params as { key: string }).key, new Map(), 'view', services.dialect.db);
      return sendJson(reply, 200, await handler({ services, model, row, baseUrl: rc.baseUrl }));
    },
  });
}

/** `trace/` on every cable termination (path endpoints and, as a convenience, pass-through ports) and `paths/` on front and rear ports. */
export function registerTraceRoutes(app: FastifyInstance, services: Services): void {
  for (const type of CABLE_TERMINATION_TYPES) {
    const model = services.registry.get(type);
    route(app, services, model, 'trace', trace);
    if (PASS_THROUGH_TYPES.has(type)) route(app, services, model, 'paths', paths);
  }
}
