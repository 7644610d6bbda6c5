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

/** Query parameters in order, repeated names keeping every value. */
export function queryParams(req: FastifyRequest): Map<string, string[]> {
  const search = new URL(req.url, 'http://x').searchParams;
  const out = new Map<string, string[]>();
  for (const [k, v] of search) out.set(k, [...(out.get(k) ?? []), v]);
  return out;
}

export function toRequestContext(req: FastifyRequest, routeName: string): RequestContext {
  return { actor: req.actor, requestId: randomUUID(), baseUrl: baseUrl(req), routeName };
}
