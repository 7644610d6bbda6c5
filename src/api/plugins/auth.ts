import { NotAuthenticatedError, PermissionDeniedError } from '../../core/errors.js';
import { authenticateBasic, authenticateToken } from '../../ops/auth.js';
import { requestGeneration, routeConfig } from '../request-context.js';
import { sendCsrfFailurePage } from './csrf-page.js';
import { csrfFailure, sessionUser } from './session.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Actor, Services } from '../../ops/services.js';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
/** POSTs that only read: a read-only token may send them (the reference's GraphQL view asks only for a user). */
const READING_POSTS = new Set(['/api/graphql/']);
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** An unauthenticated reader let in by EXEMPT_VIEW_PERMISSIONS=*: no grants, matches no `$user`. */
const ANONYMOUS: Actor = { id: '00000000-0000-0000-0000-000000000000', username: '', is_superuser: false, is_active: false, permissions: [], write_enabled: false, anonymous: true };

/** `Basic <base64 user:password>` as DRF's BasicAuthentication reads it (texts included). */
function authenticateBasicHeader(services: Services, parts: string[]) {
  if (parts.length === 0) throw new NotAuthenticatedError('Invalid basic header. No credentials provided.');
  if (parts.length > 1) throw new NotAuthenticatedError('Invalid basic header. Credentials string should not contain spaces.');
  if (!BASE64.test(parts[0])) throw new NotAuthenticatedError('Invalid basic header. Credentials not correctly base64 encoded.');
  const [user, ...pw] = Buffer.from(parts[0], 'base64').toString('utf8').split(':');
  return authenticateBasic(services, user, pw.join(':'));
}

/**
 * Parses `Authorization` (parts split on whitespace, keyword case-insensitive, as DRF); other
 * schemes leave the request anonymous. HTTP Basic counts only on the tokens endpoint.
 */
async function authenticate(services: Services, req: FastifyRequest) {
  const [scheme = '', ...rest] = String(req.headers.authorization ?? '').trim().split(/\s+/);
  if (scheme.toLowerCase() === 'token') {
    if (rest.length === 0) throw new NotAuthenticatedError('Invalid token header. No credentials provided.');
    if (rest.length > 1) throw new NotAuthenticatedError('Invalid token header. Token string should not contain spaces.');
    // Where reading the generation costs a statement and the dialect can read it beside a row, the
    // token look-up reads it (one round trip for both) and the request keeps it.
    const { dialect } = services;
    const readBeside = !dialect.freeGeneration && dialect.generationSql !== undefined;
    const given = readBeside ? req.generationRead ?? undefined : requestGeneration(dialect, req);
    const reading = authenticateToken(services, rest[0], given);
    // The token's statement is on its way: what the route reads ahead goes out in its round trip.
    if (readBeside && !given) routeConfig(req).readAhead?.(req);
    const { actor, generation } = await reading;
    if (generation) req.generationRead ??= generation;
    return actor;
  }
  if (scheme.toLowerCase() === 'basic' && req.url.startsWith('/api/users/tokens/')) return authenticateBasicHeader(services, rest);
  return null;
}

/**
 * Outside /api/ (the web interface, GraphiQL): the session's user, or null; an unsafe request
 * must pass the CSRF check whether logged in or not (the login form included), else it gets the
 * 403 page.
 */
async function webSession(services: Services, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  if (req.url.startsWith('/static/')) return undefined;
  if (!SAFE.has(req.method)) {
    const failure = csrfFailure(req);
    if (failure) return sendCsrfFailurePage(reply, failure);
  }
  req.actor = await sessionUser(services, req);
  return undefined;
}

/** A request without a token may come from a logged-in browser: its unsafe methods need the CSRF token (DRF's SessionAuthentication). */
async function apiSession(services: Services, req: FastifyRequest) {
  const actor = await sessionUser(services, req);
  if (actor && !SAFE.has(req.method)) {
    const failure = csrfFailure(req);
    if (failure) throw new PermissionDeniedError(`CSRF Failed: ${failure}`);
  }
  return actor;
}

/**
 * Every /api/ request: authenticate (token, else session), then refuse anonymous requests (403, never 401) unless
 * EXEMPT_VIEW_PERMISSIONS allows anonymous reads, and refuse writes with a read-only token.
 */
export function registerAuth(app: FastifyInstance, services: Services): void {
  app.decorateRequest('actor', null);
  app.decorateRequest('generationRead', null);
  app.addHook('preHandler', async (req, reply) => {
    // Uploaded files (/media/): a token or a session user (the route sends anyone else to log in).
    if (req.url.startsWith('/media/')) {
      req.actor = (await authenticate(services, req)) ?? (await sessionUser(services, req));
      return;
    }
    if (!req.url.startsWith('/api/')) return webSession(services, req, reply);
    const actor = (await authenticate(services, req)) ?? (await apiSession(services, req));
    if (!actor) {
      const anonymousRead = services.config.exemptViewPermissions.includes('*') && SAFE.has(req.method) && req.method !== 'OPTIONS';
      if (!anonymousRead) throw new NotAuthenticatedError();
      req.actor = ANONYMOUS;
      return;
    }
    if (!actor.write_enabled && !SAFE.has(req.method) && !READING_POSTS.has(req.url.split('?')[0])) throw new PermissionDeniedError();
    req.actor = actor;
  });
}
