import type { FastifyInstance } from 'fastify';

/** Headers every response carries (Django's SecurityMiddleware and XFrameOptionsMiddleware defaults, as the reference sends them). */
const HEADERS: Record<string, string> = {
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (_req, reply, payload) => {
    for (const [name, value] of Object.entries(HEADERS)) if (!reply.hasHeader(name)) reply.header(name, value);
    return payload;
  });
}
