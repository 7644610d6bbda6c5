import { Registry } from 'prom-client';
import { NotAuthenticatedError } from '../../core/errors.js';
import { authenticateToken } from '../../ops/auth.js';
import { clusterMetricsText, inClusterWorker, shareWorkerMetrics } from './cluster.js';
import { buildAppMetrics, processMetrics } from './metrics.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ResponseCache } from '../crud/response-cache.js';
import type { Services } from '../../ops/services.js';

/** METRICS_AUTHENTICATED: a valid token (any active user), as the reference's login requirement. */
async function requireToken(services: Services, req: FastifyRequest): Promise<void> {
  const [scheme = '', key, ...rest] = String(req.headers.authorization ?? '').trim().split(/\s+/);
  if (scheme.toLowerCase() !== 'token' || !key || rest.length > 0) throw new NotAuthenticatedError();
  await authenticateToken(services, key);
}

/**
 * `GET /metrics/` in Prometheus text format (METRICS_ENABLED): requests by route and status with
 * their latency, the database pool and statements, the response cache, and the process's own
 * figures. Every request is counted as it ends (the scrape itself too). In a `WORKERS>1` cluster
 * any worker answers for all of them (summed through the primary process).
 */
export function registerMetrics(app: FastifyInstance, services: Services, cache: ResponseCache): void {
  if (!services.config.metrics.enabled) return;
  const metrics = buildAppMetrics(services, cache);
  const registries = [processMetrics(), metrics.registry];
  if (inClusterWorker()) shareWorkerMetrics(registries);
  app.addHook('onResponse', (req, reply, done) => {
    metrics.observe(req, reply);
    done();
  });
  app.get('/metrics/', async (req, reply) => {
    if (services.config.metrics.authenticated) await requireToken(services, req);
    const text = inClusterWorker() ? await clusterMetricsText() : await Registry.merge(registries).metrics();
    return reply.header('content-type', Registry.PROMETHEUS_CONTENT_TYPE).send(text);
  });
}
