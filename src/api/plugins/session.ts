import { randomBytes } from 'node:crypto';
import { safeEqual } from '../../core/passwords.js';
import { sessionActor } from '../../ops/sessions.js';
import { baseUrl } from '../request-context.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Actor, Services } from '../../ops/services.js';

/** Cookie names as the reference (Django) sets them. */
export const SESSION_COOKIE = 'sessionid';
export const CSRF_COOKIE = 'csrftoken';
/** Form field carrying the CSRF token in a posted HTML form (Django's name). */
export const CSRF_FIELD = 'csrfmiddlewaretoken';
const CSRF_FORMAT = /^[A-Za-z0-9]{32,64}$/;
const CSRF_SECONDS = 365 * 24 * 3600;

/** The request's cookies by name (first value wins, values percent-decoded when they can be). */
export function readCookies(req: FastifyRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of String(req.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at < 1) continue;
    const name = part.slice(0, at).trim();
    if (name in out) continue;
    const raw = part.slice(at + 1).trim();
    try { out[name] = decodeURIComponent(raw); } catch { out[name] = raw; }
  }
  return out;
}

/** Whether the request came over https (directly or through a proxy that says so). */
export function isSecure(req: FastifyRequest): boolean {
  return baseUrl(req).startsWith('https:');
}

/** Adds a Set-Cookie header (SameSite=Lax, Path=/, Secure over https), keeping earlier ones. */
export function setCookie(req: FastifyRequest, reply: FastifyReply, name: string, value: string, opts: { maxAge: number; httpOnly: boolean }): void {
  const parts = [`${name}=${value}`, 'Path=/', `Max-Age=${opts.maxAge}`, 'SameSite=Lax'];
  if (opts.maxAge > 0) parts.push(`Expires=${new Date(Date.now() + opts.maxAge * 1000).toUTCString()}`);
  else parts.push('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
  if (opts.httpOnly) parts.push('HttpOnly');
  if (isSecure(req)) parts.push('Secure');
  const existing = reply.getHeader('set-cookie');
  const list = existing === undefined ? [] : Array.isArray(existing) ? existing.map(String) : [String(existing)];
  reply.header('set-cookie', [...list, parts.join('; ')]);
}

/** The browser's CSRF token, set as a cookie first when it has none (or a malformed one). */
export function csrfToken(req: FastifyRequest, reply: FastifyReply): string {
  const current = readCookies(req)[CSRF_COOKIE];
  if (current && CSRF_FORMAT.test(current)) return current;
  const token = randomBytes(24).toString('base64url').replace(/[-_]/g, '0').slice(0, 32);
  setCookie(req, reply, CSRF_COOKIE, token, { maxAge: CSRF_SECONDS, httpOnly: false });
  // A page rendered in this same response reads the token from the request's cookies.
  req.headers.cookie = `${req.headers.cookie ? `${req.headers.cookie}; ` : ''}${CSRF_COOKIE}=${token}`;
  return token;
}

/**
 * Why an unsafe request fails the CSRF check (Django's texts), or null when it passes: the
 * token in `X-CSRFToken` or the form field must equal the `csrftoken` cookie, and an `Origin`
 * header must name this service.
 */
export function csrfFailure(req: FastifyRequest): string | null {
  const origin = req.headers.origin;
  if (origin && origin !== 'null' && origin !== baseUrl(req)) return `Origin checking failed - ${origin} does not match any trusted origins.`;
  const cookie = readCookies(req)[CSRF_COOKIE];
  if (!cookie || !CSRF_FORMAT.test(cookie)) return 'CSRF cookie not set.';
  const header = req.headers['x-csrftoken'];
  const body = req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>)[CSRF_FIELD] : undefined;
  const sent = typeof header === 'string' ? header : typeof body === 'string' ? body : '';
  if (!sent) return 'CSRF token missing.';
  if (!safeEqual(sent, cookie)) return typeof header === 'string' ? "CSRF token from the 'X-Csrftoken' HTTP header incorrect." : 'CSRF token from POST incorrect.';
  return null;
}

/** The session cookie's value, when the request carries one. */
export function sessionKey(req: FastifyRequest): string | undefined {
  return readCookies(req)[SESSION_COOKIE] || undefined;
}

/** The logged-in user behind the request's session cookie, or null. */
export async function sessionUser(services: Services, req: FastifyRequest): Promise<(Actor & { write_enabled: boolean }) | null> {
  const key = sessionKey(req);
  return key ? sessionActor(services, key) : null;
}
