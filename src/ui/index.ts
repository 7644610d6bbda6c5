import { readFileSync } from 'node:fs';
import { sessionUser } from '../api/plugins/session.js';
import { registerFormParser } from './form-body.js';
import { registerLogin, toLogin } from './login.js';
import { registerPages } from './pages.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../ops/services.js';

/** The interface's own small stylesheet and script, read once. */
const ASSETS: Record<string, { type: string; body: Buffer }> = {
  'ui.css': { type: 'text/css; charset=utf-8', body: readFileSync(new URL('./assets/ui.css', import.meta.url)) },
  'ui.js': { type: 'text/javascript; charset=utf-8', body: readFileSync(new URL('./assets/ui.js', import.meta.url)) },
};

function registerAssets(app: FastifyInstance): void {
  app.get('/static/ui/:file', async (req, reply) => {
    const asset = ASSETS[(req.params as { file: string }).file];
    if (!asset) return reply.code(404).header('content-type', 'text/plain; charset=utf-8').send('Not found.\n');
    return reply.header('content-type', asset.type).header('Cache-Control', 'public, max-age=3600').send(asset.body);
  });
}

/** A browser that opens /api/docs/ without a token or session is sent to log in first (then comes back). */
function docsNeedLogin(app: FastifyInstance, services: Services): void {
  // A hook of every request: the others return at once, without a promise.
  const forDocs = async (req: FastifyRequest, reply: FastifyReply) => {
    if (new URL(req.url, 'http://x').pathname !== '/api/docs/' || (await sessionUser(services, req))) return;
    if (services.config.exemptViewPermissions.includes('*')) return;
    return toLogin(reply, req.url);
  };
  app.addHook('onRequest', (req, reply, done) => {
    if (req.method !== 'GET' || req.headers.authorization || !req.url.startsWith('/api/docs/')) return done();
    forDocs(req, reply).then((sent) => (sent ? undefined : done()), done);
  });
}

/** The web interface: login, the generic pages of every model, assets (all served locally). */
export function registerUi(app: FastifyInstance, services: Services): void {
  registerFormParser(app);
  registerAssets(app);
  docsNeedLogin(app, services);
  registerLogin(app, services);
  registerPages(app, services);
}
