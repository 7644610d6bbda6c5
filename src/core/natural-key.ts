/**
 * Natural keys as the reference builds them: composite keys joined with `;` (percent-encoded
 * parts, null as `%00`) for writes and paths, and lossy `natural_slug` values for display.
 */

/** Trailing nulls are dropped, as the reference's natural_key() does. */
export function trimTrailingNulls(values: unknown[]): unknown[] {
  let end = values.length;
  while (end > 0 && (values[end - 1] === null || values[end - 1] === undefined)) end -= 1;
  return values.slice(0, end);
}

function quotePlus(value: string): string {
  return encodeURIComponent(value)
    .replace(/%20/g, '+')
    .replace(/%3A/gi, ':')
    .replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function toCompositeKey(values: unknown[]): string {
  return values.map((v) => (v === null || v === undefined ? '%00' : quotePlus(String(v)))).join(';');
}

const UTF8 = new TextDecoder('utf-8');

/**
 * Python's `unquote_plus`: runs of valid `%XX` escapes decode as UTF-8 (invalid bytes become
 * U+FFFD); a `%` not followed by two hex digits stays as it is (never an error: a detail path
 * such as `fe80::1%eth0` is a key like any other).
 */
function unquotePlus(text: string): string {
  return text.replace(/\+/g, ' ').replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => UTF8.decode(Uint8Array.from(run.slice(1).split('%'), (hex) => parseInt(hex, 16))));
}

export function fromCompositeKey(key: string): (string | null)[] {
  return key.split(';').map((part) => {
    const value = unquotePlus(part);
    return value === '\0' ? null : value;
  });
}

const SLUG_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const slugs = new Map<string, string>();

/** python-slugify's default behaviour, closely enough for ASCII and Latin text (memoized: names repeat). */
export function slugify(value: string): string {
  if (SLUG_RE.test(value)) return value;
  let slug = slugs.get(value);
  if (slug === undefined) {
    slug = slugifyText(value);
    if (slugs.size >= 10000) slugs.clear();
    slugs.set(value, slug);
  }
  return slug;
}

function slugifyText(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/['"]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

const UTC_TIMESTAMP = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(\.\d+)?Z$/;

/** A stored UTC timestamp as Python prints a datetime (`2024-05-01 10:00:00.123456+00:00`), which the reference slugifies. */
function pythonText(value: unknown): string {
  const text = typeof value === 'string' ? value : String(value);
  // Most parts are names: only a text with the `T` of a timestamp at its place is matched.
  if (text.length < 20 || text.charCodeAt(10) !== 84) return text;
  const match = UTC_TIMESTAMP.exec(text);
  if (!match) return text;
  const fraction = match[3] && /[1-9]/.test(match[3]) ? match[3].padEnd(7, '0') : '';
  return `${match[1]} ${match[2]}${fraction}+00:00`;
}

/** The parts slugified and joined with `_`, the first four characters of the primary key last. */
export function toNaturalSlug(values: unknown[], pk: string): string {
  let out = '';
  for (const v of values) out += v === null || v === undefined ? '_' : `${slugify(pythonText(v))}_`;
  return out + slugify(pk.slice(0, 4));
}
