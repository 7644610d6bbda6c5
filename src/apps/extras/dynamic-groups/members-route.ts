import { MethodNotAllowedError } from '../../../core/errors.js';
import { pageLinks } from '../../../api/crud/pagination.js';
import { parsePaging, serializeOptions } from '../../../api/crud/query.js';
import { sendJson } from '../../../api/crud/respond.js';
import { buildOptions } from '../../../api/metadata/options.js';
import { queryParams, requestGeneration, toRequestContext } from '../../../api/request-context.js';
import { hasPermission } from '../../../ops/permissions.js';
import { getRow, listRows } from '../../../ops/read.js';
import { serialize } from '../../../ops/serialize/index.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteDoc } from '../../../api/openapi/route-doc.js';
import type { Services } from '../../../ops/services.js';

const ALLOW = 'GET, HEAD, OPTIONS';

const DOC: RouteDoc = {
  get: {
    summary: 'List the member objects of this dynamic group (objects of its content type, rendered as their own list renders them).',
    paging: true,
    errors: [404],
    ok: [200, { schema: { type: 'object', properties: { count: { type: 'integer' }, next: { type: 'string', nullable: true }, previous: { type: 'string', nullable: true }, results: { type: 'array', items: { type: 'object', additionalProperties: true } } } } }],
  },
};

/**
 * One page of the group's members, computed as the request runs, in their model's default order,
 * at the requested depth; only those the caller may view (none without the view permission, as
 * the reference's `restrict`).
 */
async function membersPage(services: Services, req: FastifyRequest) {
  const rc = toRequestContext(req, 'extras-api:dynamicgroup-members');
  const group = await getRow(services, rc, services.registry.get('extras.dynamicgroup'), (req.params as { key: string }).key, new Map(), 'view', services.dialect.db);
  const model = services.registry.get(String(group.content_type));
  const params = queryParams(req);
  const paging = parsePaging(params, services.config);
  const links = (count: number) => pageLinks({ base: rc.baseUrl, path: new URL(req.url, 'http://x').pathname, params, count, ...paging });
  if (rc.actor && !hasPermission(services, rc.actor, 'view', model)) return { count: 0, ...links(0), results: [] };
  const { count, rows } = await listRows(services, rc, model, { params: new Map([['dynamic_groups', [group.id]]]), ...paging });
  const opts = serializeOptions(params, rc.baseUrl, { method: req.method, generation: requestGeneration(services.dialect, req) });
  const results = await serialize(services, services.dialect.db, model, rows, opts);
  const { next, previous } = links(count);
  return { count, next, previous, results };
}

async function handleMembers(services: Services, req: FastifyRequest, reply: FastifyReply) {
  reply.header('Allow', ALLOW);
  const model = services.registry.get('extras.dynamicgroup');
  if (req.method === 'OPTIONS') return sendJson(reply, 200, buildOptions(services, model, { actor: req.actor, detail: true, writeEnabled: true }));
  if (req.method !== 'GET' && req.method !== 'HEAD') throw new MethodNotAllowedError(req.method, ALLOW);
  return sendJson(reply, 200, await membersPage(services, req));
}

/** `GET /api/extras/dynamic-groups/{id}/members/` (reference `DynamicGroupViewSet.members`). */
export function registerMembersRoute(app: FastifyInstance, services: Services): void {
  app.route({ method: ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'], url: '/api/extras/dynamic-groups/:key/members/', config: { openapi: DOC }, handler: (req, reply) => handleMembers(services, req, reply) });
}
