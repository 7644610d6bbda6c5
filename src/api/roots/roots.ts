import { createRequire } from 'node:module';
import { liveWorkers } from '../../queue/index.js';
import { NotFoundError } from '../../core/errors.js';
import { isMigrated } from '../../db/schema/migrate.js';
import { baseUrl } from '../request-context.js';
import { sendJson } from '../crud/respond.js';
import { MATCHED_NAUTOBOT_RELEASE } from '../plugins/versioning.js';
import { INSTALLED_APPS_PATHS, registerInstalledApps } from './installed-apps.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../../ops/services.js';

/** Roots and status are read-only API views. */
const ROOT_ALLOW = 'GET, HEAD, OPTIONS';

const pkg = createRequire(import.meta.url)('../../../package.json') as { name: string; version: string; dependencies: Record<string, string> };

/** Top-level keys of /api/ in the reference's order. */
const ROOT_KEYS = ['apps', 'circuits', 'cloud', 'dcim', 'extras', 'graphql', 'ipam', 'plugins', 'status', 'tenancy', 'users', 'virtualization', 'wireless'];

/** App roots beyond the registry's apps that the API serves, with their fixed listings. */
const FIXED_ROOTS: Record<string, string[]> = { apps: [INSTALLED_APPS_PATHS.apps], plugins: [INSTALLED_APPS_PATHS.plugins] };

/** `/api/` and `/api/<app>/` listings, `/api/status/`, and `/health/` for load balancers. */
export function registerRoots(app: FastifyInstance, services: Services): void {
  const apps = new Set([...services.registry.apps, ...Object.keys(FIXED_ROOTS), 'status', 'graphql']);
  registerInstalledApps(app, services);
  app.get('/api/', { config: { allow: () => ROOT_ALLOW } }, async (req, reply) => {
    reply.header('Allow', ROOT_ALLOW);
    const base = baseUrl(req);
    const body: Record<string, string> = {};
    for (const key of ROOT_KEYS) if (apps.has(key)) body[key] = `${base}/api/${key}/`;
    return sendJson(reply, 200, body);
  });
  const isAppRoot = (label: string) => apps.has(label) && label !== 'status' && label !== 'graphql';
  const appRootAllow = (req: FastifyRequest) => (isAppRoot((req.params as { app: string }).app) ? ROOT_ALLOW : undefined);
  app.get('/api/:app/', { config: { allow: appRootAllow } }, async (req, reply) => {
    const { app: label } = req.params as { app: string };
    if (!isAppRoot(label)) throw new NotFoundError('Not found.', { versioned: false });
    reply.header('Allow', ROOT_ALLOW);
    const base = baseUrl(req);
    const paths = [...services.registry.models.filter((m) => m.app === label && !m.internal).map((m) => m.path), ...(services.registry.rootPaths.get(label) ?? []), ...(FIXED_ROOTS[label] ?? [])].sort();
    return sendJson(reply, 200, Object.fromEntries(paths.map((p) => [p, `${base}/api/${label}/${p}/`])));
  });
  app.get('/api/status/', { config: { allow: () => ROOT_ALLOW } }, async (_req, reply) => {
    reply.header('Allow', ROOT_ALLOW);
    const installed = Object.fromEntries(Object.entries(pkg.dependencies).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, v.replace(/^[\^~]/, '')]));
    return sendJson(reply, 200, {
      'django-version': null,
      'installed-apps': installed,
      'nautobot-version': MATCHED_NAUTOBOT_RELEASE,
      'nautobot-apps': {},
      plugins: {},
      'python-version': null,
      'celery-workers-running': await liveWorkers(services),
      // This service's own facts, under keys of its own after the reference's.
      [`${pkg.name}-version`]: pkg.version,
      'node-version': process.versions.node,
      'database': services.dialect.name,
    });
  });
  app.get('/health/', async (_req, reply) => {
    try {
      const ok = await isMigrated(services.dialect);
      return sendJson(reply, ok ? 200 : 503, { status: ok ? 'ok' : 'migrations pending', database: services.dialect.name });
    } catch (err) {
      return sendJson(reply, 503, { status: 'database unreachable', error: (err as Error).message });
    }
  });
}
