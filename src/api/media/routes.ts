import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { NotFoundError } from '../../core/errors.js';
import { MEDIA_URL, checkedMediaPath } from '../../core/media/paths.js';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../ops/services.js';

/** Content types of the files image fields store; anything else is served as bytes. */
const TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', bmp: 'image/bmp' };

function contentTypeOf(path: string): string {
  return TYPES[path.slice(path.lastIndexOf('.') + 1).toLowerCase()] ?? 'application/octet-stream';
}

/** The bytes of a stored file, or null when there is none (a folder, a missing file). */
async function readStored(mediaRoot: string, relative: string): Promise<Buffer | null> {
  try {
    return await readFile(join(mediaRoot, relative));
  } catch {
    return null;
  }
}

/** The request's path under /media/, decoded; null when its escapes are malformed. */
function requestedPath(url: string): string | null {
  try {
    return checkedMediaPath(decodeURIComponent(new URL(url, 'http://x').pathname.slice(MEDIA_URL.length)));
  } catch {
    return null;
  }
}

/**
 * `GET /media/<path>`: the uploaded files (image fields), to a token or session user (the auth
 * plugin reads them); a path that leaves the media folder or names no file is a 404.
 */
export function registerMediaRoutes(app: FastifyInstance, services: Services): void {
  app.get(`${MEDIA_URL}*`, async (req, reply) => {
    // Anyone else is sent to log in first, as the reference's media view does.
    if (!req.actor) return reply.code(302).header('Location', `/login/?next=${encodeURIComponent(req.url).replace(/%2F/g, '/')}`).send('');
    const relative = requestedPath(req.url);
    const data = relative ? await readStored(services.config.mediaRoot, relative) : null;
    if (!data) throw new NotFoundError();
    return reply.header('content-type', contentTypeOf(relative!)).header('X-Content-Type-Options', 'nosniff').send(data);
  });
}
