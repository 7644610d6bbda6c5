import type { FastifyInstance } from 'fastify';

/** Headers every response carries (Django's SecurityMiddleware and XFrameOptionsMiddleware defaults, as the reference sends them). */
const HEADERS: Record<string, string> = {
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

const HEADER_LIST = Object.entries(HEADERS);

export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', (_req, reply, payload, done) => {
    for (const [name, value] of HEADER_LIST) if (!reply.hasHeader(name)) reply.header(name, value);
    done(null, payload);
  });
}
