import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { queueDepth } from '../../queue/index.js';
import { routeConfig } from '../request-context.js';
import { RequestTally } from './request-tally.js';
import type { ResponseCache } from '../crud/response-cache.js';
import type { Services } from '../../ops/services.js';

/** Process metrics (CPU, memory, event loop, GC) are collected once per process, whatever the number of apps. */
let processRegistry: Registry | undefined;

/** The registry of the process-wide default metrics (prom-client's `process_*` and `nodejs_*`). */
export function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** Seconds buckets for request latency: 1 ms to 30 s (the PostgreSQL statement limit's default). */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** One app's metrics: requests by route and status, the database pool and statements, the response cache. */
export type AppMetrics = { registry: Registry; observe: (req: FastifyRequest, reply: FastifyReply) => void };

/** Labels of the generic model routes by pattern and `app/path`, one table per registry (models are known at start: bounded). */
const modelRouteLabels = new WeakMap<object, Map<string, Map<string, string>>>();

/** `pattern` with the model's app and path filled in, or undefined when no registered model has them. */
function modelRouteLabel(services: Services, pattern: string, app: string, path: string): string | undefined {
  let byPattern = modelRouteLabels.get(services.registry);
  if (!byPattern) modelRouteLabels.set(services.registry, (byPattern = new Map()));
  let labels = byPattern.get(pattern);
  if (!labels) byPattern.set(pattern, (labels = new Map(services.registry.models.map((m) => [`${m.app}/${m.path}`, pattern.replace(':app', m.app).replace(':path', m.path)]))));
  return labels.get(`${app}/${path}`);
}

/**
 * The route a request matched, as a bounded label: the generic model routes name their model
 * (`/api/dcim/devices/:key/`), every other route its pattern, and unmatched paths `(unmatched)`.
 */
export function routeLabel(services: Services, req: FastifyRequest): string {
  const pattern = routeConfig(req).url;
  if (!pattern) return '(unmatched)';
  if (!pattern.startsWith('/api/:app/:path/')) return pattern;
  const { app, path } = req.params as { app?: string; path?: string };
  return modelRouteLabel(services, pattern, String(app), String(path)) ?? pattern;
}

function registerDatabaseMetrics(registry: Registry, services: Services): void {
  const { dialect } = services;
  new Counter({ name: 'netsot_db_statements_total', help: 'SQL statements sent to the database by this process.', registers: [registry], labelNames: [],
    collect() { this.reset(); this.inc(dialect.queryCount()); } });
  if (!dialect.poolStats) return;
  const stats = dialect.poolStats.bind(dialect);
  new Gauge({ name: 'netsot_db_pool_connections', help: 'Connections of the database pool by state (open, idle, in_use) and requests waiting for one.', labelNames: ['state'], registers: [registry],
    collect() {
      const s = stats();
      this.set({ state: 'open' }, s.total);
      this.set({ state: 'idle' }, s.idle);
      this.set({ state: 'in_use' }, s.total - s.idle);
      this.set({ state: 'waiting' }, s.waiting);
    } });
  new Gauge({ name: 'netsot_db_pool_max_connections', help: 'Largest number of connections the pool opens.', registers: [registry], collect() { this.set(stats().max); } });
}

/** Queue depth: items waiting (`queued`) and being worked on (`running`), one statement per scrape. */
function registerQueueMetrics(registry: Registry, services: Services): void {
  new Gauge({ name: 'netsot_queue_items', help: 'Queue items (events, jobs) by state: queued (waiting) and running.', labelNames: ['state'], registers: [registry], aggregator: 'first',
    async collect() {
      const depth = await queueDepth(services);
      for (const state of ['queued', 'running'] as const) this.set({ state }, depth[state]);
    } });
}

function registerCacheMetrics(registry: Registry, cache: ResponseCache): void {
  new Counter({ name: 'netsot_response_cache_lookups_total', help: 'Response cache lookups of list and detail GETs by result (hit, miss).', labelNames: ['result'], registers: [registry],
    collect() { this.reset(); this.inc({ result: 'hit' }, cache.counts.hits); this.inc({ result: 'miss' }, cache.counts.misses); } });
  new Gauge({ name: 'netsot_response_cache_hit_ratio', help: 'Share of response cache lookups answered from the cache since start (0 before any lookup).', registers: [registry], aggregator: 'average',
    collect() { const all = cache.counts.hits + cache.counts.misses; this.set(all === 0 ? 0 : cache.counts.hits / all); } });
  new Gauge({ name: 'netsot_response_cache_bytes', help: 'Bytes of rendered responses held by the response cache.', registers: [registry], collect() { this.set(cache.size().bytes); } });
}

/** Builds the metrics of one app over its services and response cache. */
export function buildAppMetrics(services: Services, cache: ResponseCache): AppMetrics {
  const registry = new Registry();
  const labelNames = ['method', 'route', 'status'];
  const tally = new RequestTally(labelNames, LATENCY_BUCKETS);
  new Counter({ name: 'http_requests_total', help: 'HTTP requests answered, by method, route and status.', labelNames, registers: [registry],
    collect() { this.reset(); for (const { labels, count } of tally.counts()) this.inc(labels, count); } });
  tally.registerHistogram(registry, 'http_request_duration_seconds', 'Time to answer HTTP requests, by method, route and status.');
  registerDatabaseMetrics(registry, services);
  registerCacheMetrics(registry, cache);
  registerQueueMetrics(registry, services);
  return {
    registry,
    observe(req, reply) {
      tally.observe([req.method, routeLabel(services, req), String(reply.statusCode)], reply.elapsedTime / 1000);
    },
  };
}
