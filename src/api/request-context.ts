import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Dialect } from '../db/dialects/dialect.js';
import type { Actor, RequestContext } from '../ops/services.js';

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null;
    apiVersion: string;
    /** Set when the request wants CSV (format=csv or Accept: text/csv). */
    wantsCsv: boolean;
    /** The database's write generation as this request first read it (`requestGeneration`). */
    generationRead: Promise<string | null> | null;
    /** The request's URL as `requestUrl` parsed it (once per request). */
    parsedUrl: URL | null;
    /** The matched route's `config` as `routeConfig` read it (once per request). */
    routeConfigRead: RouteConfig | null;
  }
}

/**
 * The write generation at the start of the request, read once and shared by what the request
 * keys on it (token look-ups, the response cache): on PostgreSQL each read is a round trip.
 */
export function requestGeneration(dialect: Dialect, req: FastifyRequest): Promise<string | null> {
  req.generationRead ??= dialect.writeGeneration();
  return req.generationRead;
}

/** scheme://host as the request named it, for absolute URLs. */
export function baseUrl(req: FastifyRequest): string {
  const proto = (req.headers['x-forwarded-proto'] as string | undefined)?.split(',')[0] ?? req.protocol;
  return `${proto}://${req.headers.host ?? 'localhost'}`;
}

/**
 * The request's path and query as a WHATWG URL, parsed once per request (versioning, the
 * browsable API, the handlers and their page links all read it). Shared: read it, never change
 * it (copy it first: `new URL(requestUrl(req))`).
 */
export function requestUrl(req: FastifyRequest): URL {
  req.parsedUrl ??= new URL(req.url, 'http://x');
  return req.parsedUrl;
}

/** Query parameters in order, repeated names keeping every value (a new map each call: callers may change it; a URL without a query is not parsed). */
export function queryParams(req: FastifyRequest): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (!req.url.includes('?')) return out;
  for (const [k, v] of requestUrl(req).searchParams) {
    const values = out.get(k);
    if (values) values.push(v);
    else out.set(k, [v]);
  }
  return out;
}

/** What the service's routes declare in their `config` (Fastify adds `url` and `method`). */
export type RouteConfig = {
  url?: string;
  /** A view the reference serves without its API-version mixin (no API-Version header). */
  unversioned?: boolean;
  /** The `Allow` header of responses made before the handler runs. */
  allow?: (req: FastifyRequest) => string | undefined;
  /** Whether the route takes multipart/form-data for this request. */
  multipart?: (req: FastifyRequest) => boolean;
  /** Starts reads the handler will want while the reader is being authenticated (see crud/read-ahead.ts). */
  readAhead?: (req: FastifyRequest) => void;
};

const NO_ROUTE: RouteConfig = {};

/**
 * The matched route's config, read once per request: Fastify's `req.routeOptions` builds a new
 * object on every access, and the hooks of every response read it (versioning, metrics, errors).
 * Unmatched requests (404s) have an empty config.
 */
export function routeConfig(req: FastifyRequest): RouteConfig {
  req.routeConfigRead ??= (req.routeOptions?.config as RouteConfig | undefined) ?? NO_ROUTE;
  return req.routeConfigRead;
}

/** The request's context for the operations; its `requestId` (the change log's) is drawn when first read: most requests write nothing. */
export function toRequestContext(req: FastifyRequest, routeName: string): RequestContext {
  let requestId: string | undefined;
  return {
    actor: req.actor,
    get requestId() {
      return (requestId ??= randomUUID());
    },
    baseUrl: baseUrl(req),
    routeName,
  };
}
