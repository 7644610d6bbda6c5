import { UnsupportedMediaError } from '../core/errors.js';
import type { FastifyInstance } from 'fastify';

/** A posted HTML form: a name given once maps to its value, a repeated name to all its values. */
export type FormBody = Record<string, string | string[]>;

/** Parses `application/x-www-form-urlencoded`. */
export function parseForm(text: string): FormBody {
  const out: FormBody = {};
  for (const [k, v] of new URLSearchParams(text)) {
    const had = out[k];
    out[k] = had === undefined ? v : Array.isArray(had) ? [...had, v] : [had, v];
  }
  return out;
}

/** Every value of a form field, as a list. */
export function formValues(body: FormBody, name: string): string[] {
  const v = body[name];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

/** The last value of a form field, or ''. */
export function formValue(body: FormBody, name: string): string {
  return formValues(body, name).at(-1) ?? '';
}

/** HTML forms post urlencoded bodies to the web interface's pages; the API keeps refusing them (415). */
export function registerFormParser(app: FastifyInstance): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (req, body, done) => {
    if (req.url.startsWith('/api/')) return done(new UnsupportedMediaError('application/x-www-form-urlencoded'), undefined);
    done(null, parseForm(String(body)));
  });
}
