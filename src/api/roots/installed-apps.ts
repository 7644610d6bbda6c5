import { NotAuthenticatedError, PermissionDeniedError } from '../../core/errors.js';
import { fixedViewHandler } from '../crud/fixed-view.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FixedView } from '../crud/fixed-view.js';
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

function installedAppsView(services: Services): FixedView {
  return {
    allow: ALLOW,
    name: 'Installed Apps',
    description: 'API view for listing all installed non-core Apps.',
    guard: (req) => requireStaff(services, req),
    // No apps are installed: the reference answers an empty list then.
    methods: { GET: async () => [] },
  };
}

/** `/api/apps/installed-apps/` and `/api/plugins/installed-plugins/` (left out of the OpenAPI document, as by the reference). */
export function registerInstalledApps(app: FastifyInstance, services: Services): void {
  const handler = fixedViewHandler(installedAppsView(services));
  for (const [root, path] of Object.entries(INSTALLED_APPS_PATHS)) {
    app.route({ method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'], url: `/api/${root}/${path}/`, handler });
  }
}
