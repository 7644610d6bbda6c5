/** Markup that is already safe: the result of `html` or `raw`, inserted as is. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** Escapes text for element content and quoted attribute values. */
export function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

/** Trusted markup (built here, never from input). */
export const raw = (text: string): Html => new Html(text);

function part(value: unknown): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(part).join('');
  if (value === null || value === undefined || value === false) return '';
  return escape(String(value));
}

/** A template whose interpolated values are escaped unless they are Html (lists are joined). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i += 1) out += part(values[i]) + strings[i + 1];
  return new Html(out);
}

/** A JSON value safe inside a `<script type="application/json">` element. */
export function scriptJson(value: unknown): Html {
  return raw(JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026'));
}
