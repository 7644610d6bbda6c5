import Fastify, { LogController } from 'fastify';
import { loadConfig } from '../core/config.js';
import { NotFoundError } from '../core/errors.js';
import { connect } from '../db/connect.js';
import { loadDefaults } from '../db/load-defaults.js';
import { migrate } from '../db/schema/migrate.js';
import { bootstrapSuperuser } from '../ops/bootstrap.js';
import { buildServices } from '../ops/build-services.js';
import { APP_ROUTES } from '../apps/index.js';
import { registerNotesRoutes } from './crud/notes-routes.js';
import { registerModelRoutes } from './crud/model-routes.js';
import { registerMediaRoutes } from './media/routes.js';
import { ResponseCache } from './crud/response-cache.js';
import { registerMetrics } from './metrics/routes.js';
import { buildLogger, registerRequestLog } from './logging.js';
import type { LogTarget } from './logging.js';
import { registerCsv } from './csv/plugin.js';
import { registerBrowsable } from './html/browsable.js';
import { registerApiDocs } from './html/swagger-ui.js';
import { registerRedoc } from './html/redoc.js';
import { registerOpenApi } from './openapi/routes.js';
import { registerAuth } from './plugins/auth.js';
import { registerBodyParsers } from './plugins/body.js';
import { registerErrorHandler, sendError } from './plugins/errors.js';
import { registerVersioning } from './plugins/versioning.js';
import { registerRoots } from './roots/roots.js';
import { registerGraphql } from '../graphql/index.js';
import { startBackground } from '../background.js';
import { closeQueueEngine, startQueueEngine } from '../queue/index.js';
import { registerChangeStream } from './stream/change-stream.js';
import { registerJobsPlatform } from '../jobs/index.js';
import { registerSecurityHeaders } from './plugins/security-headers.js';
import { registerIdleCollection } from './plugins/idle-collection.js';
import { registerUi } from '../ui/index.js';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../core/config.js';
import type { Dialect } from '../db/dialects/dialect.js';
import type { Services } from '../ops/services.js';

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}

/** `logger`: log requests (standard output, or `log.stream` with `log.tty` saying whether it is a terminal). */
export type BuildOptions = { config?: Config; dialect?: Dialect; logger?: boolean; log?: LogTarget; migrate?: boolean };

/** Missing trailing slash under /api/: 302 to the slashed path (API-SPEC rule 2); else a plain 404. */
function registerNotFound(app: FastifyInstance): void {
  app.setNotFoundHandler((req, reply) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname.startsWith('/api') && !url.pathname.endsWith('/')) {
      return reply.code(302).header('Location', `${url.pathname}/${url.search}`).header('content-type', 'text/html; charset=utf-8').send('');
    }
    return sendError(req, reply, new NotFoundError('Not found.', { versioned: false }));
  });
}

/** A request reads what was committed before it arrived, whatever an earlier request of the same turn of the event loop read (SQLite). */
function registerReadTurns(app: FastifyInstance, dialect: Dialect): void {
  const end = dialect.endReadTurn;
  if (end) app.addHook('onRequest', (_req, _reply, done) => {
    end();
    done();
  });
}

/** Builds the HTTP application over a migrated database (tests call this with inject()). */
export async function buildApp(opts: BuildOptions = {}): Promise<FastifyInstance> {
  const config = opts.config ?? loadConfig();
  const dialect = opts.dialect ?? connect(config.databaseUrl, { sqlite: { cacheMb: config.sqliteCacheMb, walLimitMb: config.sqliteWalLimitMb, checkpointIdleMs: config.sqliteCheckpointIdleMs } });
  const services = buildServices(config, dialect);
  const { registry } = services;
  if (opts.migrate !== false) {
    await migrate(dialect, registry);
    await loadDefaults(dialect, services.store, registry);
    await bootstrapSuperuser(services);
  }
  await dialect.limitStatements(config.statementTimeoutMs);
  const app = Fastify({ logger: opts.logger ? buildLogger(config, opts.log) : false, logController: new LogController({ disableRequestLogging: true }), exposeHeadRoutes: false, bodyLimit: config.limits.bodyMb * 1024 * 1024,
    // A detail path may hold a long composite natural key; the request line is bounded by Node's header limit.
    routerOptions: { maxParamLength: 16 * 1024 } });
  app.decorate('services', services);
  const cache = new ResponseCache(dialect, config.responseCacheMb * 1024 * 1024);
  if (opts.logger) registerRequestLog(app);
  registerReadTurns(app, dialect);
  registerIdleCollection(app, config.idleGcMs, dialect.releaseMemory);
  registerMetrics(app, services, cache);
  registerErrorHandler(app);
  registerBodyParsers(app, config.limits);
  registerApiDocs(app);
  registerRedoc(app);
  registerVersioning(app);
  registerAuth(app, services);
  registerCsv(app, services);
  registerBrowsable(app);
  registerRoots(app, services);
  registerOpenApi(app, services);
  for (const routes of APP_ROUTES) routes(app, services);
  registerGraphql(app, services);
  await registerJobsPlatform(app, services, { refresh: opts.migrate !== false });
  registerChangeStream(app, services);
  registerModelRoutes(app, services, cache);
  registerNotesRoutes(app, services);
  registerMediaRoutes(app, services);
  registerSecurityHeaders(app);
  registerUi(app, services);
  registerNotFound(app);
  // The queue engine before any write enqueues in its transaction; the embedded queue runner
  // (QUEUE_EMBEDDED): stopped before the database closes.
  await startQueueEngine(services);
  const background = config.queue.embedded ? await startBackground(services) : null;
  app.addHook('onClose', async () => {
    await background?.stop();
    await closeQueueEngine(services);
    await dialect.close();
  });
  return app;
}
