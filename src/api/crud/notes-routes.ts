import { MethodNotAllowedError } from '../../core/errors.js';
import { createObjects } from '../../ops/crud.js';
import { requirePermission } from '../../ops/permissions.js';
import { getRow, listRows } from '../../ops/read.js';
import { serialize } from '../../ops/serialize/index.js';
import { queryParams, toRequestContext } from '../request-context.js';
import { findModel } from './model-routes.js';
import { pageLinks } from './pagination.js';
import { parsePaging } from './query.js';
import { sendJson } from './respond.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../../ops/services.js';

const NOTES_ALLOW = 'GET, POST, HEAD, OPTIONS';

async function handleNotes(services: Services, req: FastifyRequest, reply: FastifyReply) {
  const model = findModel(services, req);
  const notes = services.registry.get('extras.note');
  reply.header('Allow', NOTES_ALLOW);
  if (!model.features.has('notes')) throw new MethodNotAllowedError(req.method, NOTES_ALLOW);
  const { key } = req.params as { key: string };
  const rc = toRequestContext(req, `${model.app}-api:${model.model}-notes`);
  const object = await getRow(services, rc, model, key, new Map(), 'view', services.dialect.db);
  if (req.method === 'POST') {
    if (rc.actor) requirePermission(services, rc.actor, 'add', notes);
    const body = { ...(req.body as Record<string, unknown>), assigned_object_type: model.id, assigned_object_id: object.id };
    const rows = await createObjects(services, rc, notes, body);
    return sendJson(reply, 201, (await serialize(services, services.dialect.db, notes, rows, { depth: 0, baseUrl: rc.baseUrl }))[0]);
  }
  if (req.method !== 'GET') throw new MethodNotAllowedError(req.method, NOTES_ALLOW);
  const params = queryParams(req);
  const paging = parsePaging(params, services.config);
  const scoped = new Map([['assigned_object_id', [object.id]]]);
  const { count, rows } = await listRows(services, rc, notes, { params: scoped, ...paging, sort: 'created' });
  const results = await serialize(services, services.dialect.db, notes, rows, { depth: 0, baseUrl: rc.baseUrl });
  const links = pageLinks({ base: rc.baseUrl, path: new URL(req.url, 'http://x').pathname, params, count, ...paging });
  return sendJson(reply, 200, { count, ...links, results });
}

/** `<object>/notes/`: list (oldest first) and create notes of one object. */
export function registerNotesRoutes(app: FastifyInstance, services: Services): void {
  app.route({ method: ['GET', 'HEAD', 'POST', 'OPTIONS', 'PUT', 'PATCH', 'DELETE'], url: '/api/:app/:path/:key/notes/', handler: (req, reply) => handleNotes(services, req, reply) });
}
