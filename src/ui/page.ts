import { AppError } from '../core/errors.js';
import { csrfToken } from '../api/plugins/session.js';
import { html } from './html.js';
import { layout, type PageContext } from './layout.js';
import { toLogin } from './login.js';
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { Services } from '../ops/services.js';

/** Scripts and styles only from this service; no framing; forms post here only. */
const CSP = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'";

/** What a page handler gives back: a whole HTML document, or a reply it already sent (redirects, CSV). */
export type PageResult = string | FastifyReply;
export type PageHandler = (ctx: PageContext, req: FastifyRequest, reply: FastifyReply) => Promise<PageResult>;

export function sendHtml(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply.code(status).header('content-type', 'text/html; charset=utf-8').header('Cache-Control', 'no-store').header('Content-Security-Policy', CSP).send(body);
}

/** A 303 to another page (after a form was posted). */
export function seeOther(reply: FastifyReply, location: string): FastifyReply {
  return reply.code(303).header('Location', location).send('');
}

function errorText(err: AppError): string {
  const body = err.body as Record<string, unknown>;
  return typeof body.detail === 'string' ? body.detail : JSON.stringify(body);
}

/**
 * A page of the web interface: visitors who are not logged in go to the login page; the
 * service's errors (404, 403, 400) become a page in the layout with their status.
 */
export function uiRoute(app: FastifyInstance, services: Services, method: HTTPMethods | HTTPMethods[], url: string, handler: PageHandler): void {
  app.route({
    method,
    url,
    handler: async (req, reply) => {
      if (!req.actor || req.actor.anonymous) return toLogin(reply, req.url);
      const ctx: PageContext = { services, actor: req.actor, csrf: csrfToken(req, reply), url: new URL(req.url, 'http://x') };
      try {
        const out = await handler(ctx, req, reply);
        return typeof out === 'string' ? sendHtml(reply, 200, out) : out;
      } catch (err) {
        if (!(err instanceof AppError) || err.status >= 500) throw err;
        const title = err.status === 404 ? 'Not found' : err.status === 403 ? 'Permission denied' : 'Request refused';
        return sendHtml(reply, err.status, layout(ctx, title, html`<h1>${title}</h1><div class="alert error" role="alert">${errorText(err)}</div>`));
      }
    },
  });
}
