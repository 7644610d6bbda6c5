import { BadRequestError, UnsupportedMediaError } from '../../core/errors.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** A parsed multipart/form-data body. */
export type MultipartBody = { __multipart: FormData };

/** Route config: whether the route takes a multipart/form-data body for this request (e.g. a model with image fields). */
export type MultipartConfig = { multipart?: (req: FastifyRequest) => boolean };

export function isMultipart(body: unknown): body is MultipartBody {
  return !!body && typeof body === 'object' && '__multipart' in body;
}

/** Parses a multipart body with the platform's FormData parser (a malformed one is a 400). */
export async function parseMultipart(contentType: string, body: Buffer): Promise<MultipartBody> {
  try {
    return { __multipart: await new Response(new Uint8Array(body), { headers: { 'content-type': contentType } }).formData() };
  } catch (err) {
    throw new BadRequestError(`Multipart form parse error - ${(err as Error).message}`);
  }
}

/**
 * multipart/form-data bodies, for the routes whose config accepts them (`multipart`); elsewhere
 * a 415, as before. Bounded by the app's `bodyLimit` (MAX_BODY_MB) as every body.
 */
export function registerMultipartParser(app: FastifyInstance): void {
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, (req, body, done) => {
    const contentType = String(req.headers['content-type']);
    if (!(req.routeOptions.config as MultipartConfig).multipart?.(req)) return done(new UnsupportedMediaError(contentType.split(';')[0].trim()), undefined);
    parseMultipart(contentType, body as Buffer).then((parsed) => done(null, parsed), (err: Error) => done(err, undefined));
  });
}
