import { AppError, BadRequestError, NotAcceptableError, NotFoundError } from '../../core/errors.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** API versions served; the last is the default (api-behaviour.md section 2). */
export const API_VERSIONS = ['2.0', '2.1', '2.2', '2.3', '2.4'] as const;
export const DEFAULT_VERSION = API_VERSIONS[API_VERSIONS.length - 1];
/**
 * The Nautobot release whose REST API this service matches, reported by /api/status/ under
 * `nautobot-version` (clients such as pynautobot and the Ansible collection gate features on it).
 */
export const MATCHED_NAUTOBOT_RELEASE = '2.4.36';
const SUPPORTED = `Supported versions are: ${API_VERSIONS.join(', ')}`;
const ACCEPTABLE = ['application/json', 'text/csv', 'text/html', '*/*', 'application/*', 'text/*'];

function headerVersion(accept: string): string | undefined {
  const match = /(?:^|[;,\s])version\s*=\s*([^;,\s]+)/i.exec(accept);
  return match?.[1];
}

/** Resolves the requested version and the response format; throws the reference's errors. */
export function resolveVersion(req: FastifyRequest): void {
  const accept = String(req.headers.accept ?? '');
  const fromHeader = headerVersion(accept);
  const search = new URL(req.url, 'http://x').searchParams;
  const fromQuery = search.get('api_version') ?? undefined;
  if (fromHeader && fromQuery && fromHeader !== fromQuery) throw new BadRequestError('Version mismatch between "Accept" header and query parameter.', { versioned: false });
  if (fromHeader && !API_VERSIONS.includes(fromHeader as never)) throw new NotAcceptableError(`Invalid version "${fromHeader}" in "Accept" header. ${SUPPORTED}`, { versioned: false });
  if (fromQuery && !API_VERSIONS.includes(fromQuery as never)) throw new NotFoundError(`Invalid version "${fromQuery}" in query parameter. ${SUPPORTED}`, { versioned: false });
  req.apiVersion = fromHeader ?? fromQuery ?? DEFAULT_VERSION;
  const format = search.get('format');
  if (format && !['json', 'csv', 'api'].includes(format)) throw new NotFoundError('Not found.', { versioned: false });
  const ranges = accept.split(',').map((r) => r.split(';')[0].trim().toLowerCase()).filter(Boolean);
  if (!format && ranges.length > 0 && !ranges.some((r) => ACCEPTABLE.includes(r))) throw new NotAcceptableError();
  req.wantsCsv = format === 'csv' || (!format && ranges[0] === 'text/csv');
}

/** Version errors come before authentication, as in the reference. */
/**
 * Whether the route is declared `config: { unversioned: true }`: a view the reference serves
 * without its API-version mixin (the connection lists, connected-device), whose responses carry
 * no API-Version header.
 */
export function isUnversionedRoute(req: FastifyRequest): boolean {
  return !!(req.routeOptions?.config as { unversioned?: boolean } | undefined)?.unversioned;
}

export function registerVersioning(app: FastifyInstance): void {
  app.decorateRequest('apiVersion', '');
  app.decorateRequest('wantsCsv', false);
  app.addHook('onRequest', async (req) => {
    if (req.url.startsWith('/api/')) resolveVersion(req);
  });
  // Synchronous hooks (here and in the other header and logging hooks): an async one costs every response a promise and a turn of the microtask queue.
  app.addHook('onSend', (req, reply, payload, done) => {
    if (req.apiVersion && reply.statusCode < 300 && !reply.hasHeader('API-Version') && !isUnversionedRoute(req)) reply.header('API-Version', req.apiVersion);
    done(null, payload);
  });
}

export { AppError };
