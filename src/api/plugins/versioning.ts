import { AppError, BadRequestError, NotAcceptableError, NotFoundError } from '../../core/errors.js';
import { requestUrl, routeConfig } from '../request-context.js';
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

/** What an `Accept` header asks for, read once per distinct header text (clients repeat theirs). */
export type AcceptInfo = {
  /** The `version=` parameter, if any. */
  version: string | undefined;
  /** Whether some media range is one the API renders (an absent or empty header: true). */
  acceptable: boolean;
  /** The first non-empty media range, lowercased ('' when none): `text/csv` asks for CSV. */
  first: string;
  /** The text before the first comma, as a media range, lowercased: `text/html` asks for the browsable page. */
  leading: string;
};

const acceptInfos = new Map<string, AcceptInfo>();
/** Distinct Accept texts kept, and the longest kept (client input): past the count the table starts over. */
const [MAX_ACCEPT_INFOS, MAX_ACCEPT_LENGTH] = [256, 512];

function readAccept(accept: string): AcceptInfo {
  const version = /(?:^|[;,\s])version\s*=\s*([^;,\s]+)/i.exec(accept)?.[1];
  const ranges = accept.split(',').map((r) => r.split(';')[0].trim().toLowerCase()).filter(Boolean);
  const leading = accept.split(',')[0].split(';')[0].trim().toLowerCase();
  return { version, acceptable: ranges.length === 0 || ranges.some((r) => ACCEPTABLE.includes(r)), first: ranges[0] ?? '', leading };
}

/** The request's Accept header, read (memoized by its text; shared: never change it). */
export function acceptInfo(req: FastifyRequest): AcceptInfo {
  const accept = String(req.headers.accept ?? '');
  let info = acceptInfos.get(accept);
  if (info !== undefined) return info;
  info = readAccept(accept);
  if (accept.length > MAX_ACCEPT_LENGTH) return info;
  if (acceptInfos.size >= MAX_ACCEPT_INFOS) acceptInfos.clear();
  acceptInfos.set(accept, info);
  return info;
}

/** A query parameter's first value (URLSearchParams.get), or null; a URL without a query is not parsed. */
function queryValue(req: FastifyRequest, name: string): string | null {
  return req.url.includes('?') ? requestUrl(req).searchParams.get(name) : null;
}

/** Resolves the requested version and the response format; throws the reference's errors. */
export function resolveVersion(req: FastifyRequest): void {
  const accept = acceptInfo(req);
  const fromHeader = accept.version;
  const fromQuery = queryValue(req, 'api_version') ?? undefined;
  if (fromHeader && fromQuery && fromHeader !== fromQuery) throw new BadRequestError('Version mismatch between "Accept" header and query parameter.', { versioned: false });
  if (fromHeader && !API_VERSIONS.includes(fromHeader as never)) throw new NotAcceptableError(`Invalid version "${fromHeader}" in "Accept" header. ${SUPPORTED}`, { versioned: false });
  if (fromQuery && !API_VERSIONS.includes(fromQuery as never)) throw new NotFoundError(`Invalid version "${fromQuery}" in query parameter. ${SUPPORTED}`, { versioned: false });
  req.apiVersion = fromHeader ?? fromQuery ?? DEFAULT_VERSION;
  const format = queryValue(req, 'format');
  if (format && !['json', 'csv', 'api'].includes(format)) throw new NotFoundError('Not found.', { versioned: false });
  if (!format && !accept.acceptable) throw new NotAcceptableError();
  req.wantsCsv = format === 'csv' || (!format && accept.first === 'text/csv');
}

/**
 * Whether the route is declared `config: { unversioned: true }`: a view the reference serves
 * without its API-version mixin (the connection lists, connected-device), whose responses carry
 * no API-Version header.
 */
export function isUnversionedRoute(req: FastifyRequest): boolean {
  return !!routeConfig(req).unversioned;
}

/** Version errors come before authentication, as in the reference. */
export function registerVersioning(app: FastifyInstance): void {
  app.decorateRequest('apiVersion', '');
  app.decorateRequest('wantsCsv', false);
  app.decorateRequest('parsedUrl', null);
  app.decorateRequest('routeConfigRead', null);
  app.addHook('onRequest', (req, _reply, done) => {
    if (req.url.startsWith('/api/')) resolveVersion(req);
    done();
  });
  // Synchronous hooks (here and in the other header and logging hooks): an async one costs every response a promise and a turn of the microtask queue.
  app.addHook('onSend', (req, reply, payload, done) => {
    if (req.apiVersion && reply.statusCode < 300 && !reply.hasHeader('API-Version') && !isUnversionedRoute(req)) reply.header('API-Version', req.apiVersion);
    done(null, payload);
  });
}

export { AppError };
