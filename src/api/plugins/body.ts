import { BadRequestError, PayloadTooLargeError, UnsupportedMediaError, ValidationError } from '../../core/errors.js';
import { nullCharacterErrors } from './null-characters.js';
import { measureJson } from './json-size.js';
import { pythonJsonError } from './json-error-text.js';
import { registerMultipartParser } from './multipart.js';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../core/config.js';

/** Deepest nesting of lists and objects a body may hold (everything that walks a value stays far from the stack's limit). */
export const MAX_DEPTH = 256;

/** JSON values per body allowed for each object a list may carry (a 10 000-object list: a million values). */
export const VALUES_PER_ITEM = 100;

/** The parsed JSON of a body, refused with a 413 past the limits before it is parsed (json-size.ts). */
function parseJsonBody(text: string, limits: Config['limits']): unknown {
  const maxValues = limits.bulkItems * VALUES_PER_ITEM;
  const size = measureJson(text, { maxItems: limits.bulkItems, maxValues });
  if (size.items > limits.bulkItems) throw new PayloadTooLargeError(`A request may carry at most ${limits.bulkItems} objects (MAX_BULK_ITEMS).`);
  if (size.values > maxValues) throw new PayloadTooLargeError(`A request body may hold at most ${maxValues} JSON values (${VALUES_PER_ITEM} per object of MAX_BULK_ITEMS).`);
  if (size.depth > MAX_DEPTH) throw new BadRequestError(`JSON parse error - lists and objects nested deeper than ${MAX_DEPTH} levels`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    throw new BadRequestError(`JSON parse error - ${pythonJsonError(text, (err as Error).message)}`);
  }
  // JSON can only carry a NUL as the escape `\u0000` (a raw one is a parse error): a text without
  // it holds none, and a 1000-object body is not walked value by value for nothing.
  const nul = text.includes('\\u0000') ? nullCharacterErrors(body) : null;
  if (nul) throw new ValidationError(nul);
  return body;
}

/**
 * Request bodies: JSON (with the reference's parse-error text) and CSV (kept as text for the
 * CSV importer, which counts its rows), multipart forms where a route takes them; anything else is a 415. Every body is bounded by the
 * app's `bodyLimit` (MAX_BODY_MB), answered with a 413 by the error handler.
 */
export function registerBodyParsers(app: FastifyInstance, limits: Config['limits']): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, parseJsonBody(text, limits));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
  registerMultipartParser(app);
  app.addContentTypeParser('text/csv', { parseAs: 'string' }, (_req, body, done) => done(null, { __csv: String(body) }));
  app.addContentTypeParser('*', { parseAs: 'string' }, (req, body, done) => {
    const type = String(req.headers['content-type'] ?? '').split(';')[0].trim();
    if (String(body).length === 0 && !type) return done(null, undefined);
    done(new UnsupportedMediaError(type), undefined);
  });
}
