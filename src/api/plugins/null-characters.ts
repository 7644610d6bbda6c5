/** DRF's CharField message (ProhibitNullCharactersValidator). */
export const NULL_CHARACTERS = 'Null characters are not allowed.';

function holdsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\0');
  if (depth > 256 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((v) => holdsNul(v, depth + 1));
  return Object.entries(value).some(([k, v]) => k.includes('\0') || holdsNul(v, depth + 1));
}

function objectErrors(item: unknown): Record<string, string[]> {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return holdsNul(item) ? { non_field_errors: [NULL_CHARACTERS] } : {};
  return Object.fromEntries(Object.entries(item).filter(([k, v]) => k.includes('\0') || holdsNul(v)).map(([k]) => [k.includes('\0') ? 'non_field_errors' : k, [NULL_CHARACTERS]]));
}

/**
 * The errors of a request body holding NUL characters, in the reference's shapes (a dict naming
 * each field, a list aligned with a list body), or null. No database stores them as text
 * (PostgreSQL refuses them in text and jsonb), and the reference refuses them in char fields.
 */
export function nullCharacterErrors(body: unknown): Record<string, string[]> | Record<string, string[]>[] | null {
  if (!holdsNul(body)) return null;
  return Array.isArray(body) ? body.map(objectErrors) : objectErrors(body);
}
