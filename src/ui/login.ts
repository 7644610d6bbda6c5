import { authenticateBasic } from '../ops/auth.js';
import { clearLoginFailures, createSession, deleteSession, loginThrottled, recordLoginFailure, THROTTLE } from '../ops/sessions.js';
import { csrfToken, SESSION_COOKIE, sessionKey, setCookie } from '../api/plugins/session.js';
import { formValue, type FormBody } from './form-body.js';
import { html, type Html } from './html.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../ops/services.js';

const BAD_LOGIN = 'Please enter a correct username and password. Note that both fields may be case-sensitive.';
const THROTTLED = `Too many failed login attempts. Try again in ${THROTTLE.windowSeconds / 60} minutes.`;

/** Where to go after login: a path on this site only (never `//host` or a scheme), else the home page. */
export function safeNext(next: string | null | undefined): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\') || /[\r\n]/.test(next)) return '/';
  return next;
}

/** A redirect to the login page, coming back to `next` afterwards. */
export function toLogin(reply: FastifyReply, next: string): FastifyReply {
  return reply.code(302).header('Location', `/login/?next=${encodeURIComponent(next).replace(/%2F/g, '/')}`).header('content-type', 'text/html; charset=utf-8').send('');
}

function loginPage(csrf: string, next: string, opts: { username?: string; error?: string } = {}): string {
  const error: Html | string = opts.error ? html`<div class="alert error" role="alert" id="login-error">${opts.error}</div>` : '';
  return html`<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Log in · Inventory</title><link rel="stylesheet" href="/static/ui/ui.css"></head>
<body>
<main class="login" id="content">
<h1>Log in</h1>
<div class="card">
${error}
<form method="post" action="/login/">
<input type="hidden" name="csrfmiddlewaretoken" value="${csrf}">
<input type="hidden" name="next" value="${next}">
<label for="id_username">Username</label>
<input id="id_username" name="username" autocomplete="username" autocapitalize="none" required autofocus value="${opts.username ?? ''}"${opts.error ? html` aria-describedby="login-error"` : ''}>
<label for="id_password">Password</label>
<input id="id_password" name="password" type="password" autocomplete="current-password" required>
<p><button class="primary" type="submit">Log in</button></p>
</form>
</div>
</main>
</body>
</html>
`.text;
}

function sendPage(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply.code(status).header('content-type', 'text/html; charset=utf-8').header('Cache-Control', 'no-store').send(body);
}

async function showLogin(req: FastifyRequest, reply: FastifyReply) {
  const next = safeNext(new URL(req.url, 'http://x').searchParams.get('next'));
  if (req.actor && !req.actor.anonymous) return reply.code(302).header('Location', next).send('');
  return sendPage(reply, 200, loginPage(csrfToken(req, reply), next));
}

/** POST /login/: checks the throttle, then the password; a success starts a session and goes to `next`. */
async function submitLogin(services: Services, req: FastifyRequest, reply: FastifyReply) {
  const body = (req.body ?? {}) as FormBody;
  const username = formValue(body, 'username');
  const next = safeNext(formValue(body, 'next') || new URL(req.url, 'http://x').searchParams.get('next'));
  const address = req.ip;
  if (await loginThrottled(services, username, address)) return sendPage(reply, 429, loginPage(csrfToken(req, reply), next, { username, error: THROTTLED }));
  let userId: string;
  try {
    userId = (await authenticateBasic(services, username, formValue(body, 'password'))).id;
  } catch {
    await recordLoginFailure(services, username, address);
    return sendPage(reply, 200, loginPage(csrfToken(req, reply), next, { username, error: BAD_LOGIN }));
  }
  await clearLoginFailures(services, username, address);
  const old = sessionKey(req);
  if (old) await deleteSession(services, old);
  setCookie(req, reply, SESSION_COOKIE, await createSession(services, userId), { maxAge: services.config.sessionCookieAge, httpOnly: true });
  return reply.code(302).header('Location', next).header('Cache-Control', 'no-store').send('');
}

/** /logout/: the session ends (in the database, for every process) and the cookie goes. */
async function logout(services: Services, req: FastifyRequest, reply: FastifyReply) {
  const key = sessionKey(req);
  if (key) await deleteSession(services, key);
  setCookie(req, reply, SESSION_COOKIE, '', { maxAge: 0, httpOnly: true });
  return reply.code(302).header('Location', '/login/').send('');
}

/** The reference's login and logout paths. */
export function registerLogin(app: FastifyInstance, services: Services): void {
  app.get('/login/', showLogin);
  app.post('/login/', (req, reply) => submitLogin(services, req, reply));
  app.get('/logout/', (req, reply) => logout(services, req, reply));
  app.post('/logout/', (req, reply) => logout(services, req, reply));
}
