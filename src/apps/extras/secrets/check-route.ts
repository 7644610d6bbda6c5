import { MethodNotAllowedError } from '../../../core/errors.js';
import { sendJson } from '../../../api/crud/respond.js';
import { buildOptions } from '../../../api/metadata/options.js';
import { toRequestContext } from '../../../api/request-context.js';
import { getRow } from '../../../ops/read.js';
import { SecretError, getSecretValue } from './providers.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteDoc } from '../../../api/openapi/route-doc.js';
import type { Services } from '../../../ops/services.js';

const ALLOW = 'GET, HEAD, OPTIONS';

const DOC: RouteDoc = {
  get: {
    summary: "Check that a secret's value is accessible.",
    errors: [404],
    ok: [200, { schema: { type: 'object', properties: { result: { type: 'boolean' }, message: { type: 'string' } } } }],
  },
};

/** `{result, message}`: whether the value can be read now; the value itself is never sent. */
async function checkSecret(row: Parameters<typeof getSecretValue>[0]): Promise<{ result: boolean; message: string }> {
  try {
    await getSecretValue(row);
    return { result: true, message: 'Passed' };
  } catch (err) {
    if (err instanceof SecretError) return { result: false, message: err.message };
    throw err;
  }
}

async function handleCheck(services: Services, req: FastifyRequest, reply: FastifyReply) {
  const model = services.registry.get('extras.secret');
  reply.header('Allow', ALLOW);
  if (req.method === 'OPTIONS') return sendJson(reply, 200, buildOptions(services, model, { actor: req.actor, detail: true, writeEnabled: true }));
  if (req.method !== 'GET' && req.method !== 'HEAD') throw new MethodNotAllowedError(req.method, ALLOW);
  const rc = toRequestContext(req, 'extras-api:secret-check');
  const row = await getRow(services, rc, model, (req.params as { key: string }).key, new Map(), 'view', services.dialect.db);
  return sendJson(reply, 200, await checkSecret(row));
}

/** `GET /api/extras/secrets/{id}/check/` (reference `SecretsViewSet.check`). */
export function registerSecretCheckRoute(app: FastifyInstance, services: Services): void {
  app.route({ method: ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'], url: '/api/extras/secrets/:key/check/', config: { openapi: DOC }, handler: (req, reply) => handleCheck(services, req, reply) });
}
