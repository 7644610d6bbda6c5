import { MethodNotAllowedError, NotAuthenticatedError, PermissionDeniedError } from '../../core/errors.js';
import { sendJson } from '../crud/respond.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../../ops/services.js';

const ALLOW = 'GET, HEAD, OPTIONS';

/**
 * The listing paths the reference mounts under `/api/apps/` and `/api/plugins/` (the second is its
 * pre-2.0 name, kept for pynautobot's `installed_plugins()`).
 */
export const INSTALLED_APPS_PATHS: Record<string, string> = { apps: 'installed-apps', plugins: 'installed-plugins' };

/** The reference's `IsAdminUser`: staff users only (superusers made here are staff too). */
async function requireStaff(services: Services, req: FastifyRequest): Promise<void> {
  const actor = req.actor;
  if (!actor || actor.anonymous) throw new NotAuthenticatedError();
  const row = await services.dialect.db.selectFrom('users_user').select('is_staff').where('id', '=', actor.id).executeTakeFirst();
  if (!services.dialect.decode('boolean', row?.is_staff)) throw new PermissionDeniedError();
}

async function handleInstalledApps(services: Services, req: FastifyRequest, reply: FastifyReply) {
  reply.header('Allow', ALLOW);
  await requireStaff(services, req);
  switch (req.method) {
    // No apps are installed: the reference answers an empty list then.
    case 'GET': case 'HEAD': return sendJson(reply, 200, []);
    case 'OPTIONS': return sendJson(reply, 200, {
      name: 'Installed Apps',
      description: 'API view for listing all installed non-core Apps.',
      renders: ['application/json', 'text/html', 'text/csv'],
      parses: ['application/json', 'text/csv'],
    });
    default: throw new MethodNotAllowedError(req.method, ALLOW);
  }
}

/** `/api/apps/installed-apps/` and `/api/plugins/installed-plugins/` (left out of the OpenAPI document, as by the reference). */
export function registerInstalledApps(app: FastifyInstance, services: Services): void {
  for (const [root, path] of Object.entries(INSTALLED_APPS_PATHS)) {
    app.route({ method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'], url: `/api/${root}/${path}/`, handler: (req, reply) => handleInstalledApps(services, req, reply) });
  }
}
