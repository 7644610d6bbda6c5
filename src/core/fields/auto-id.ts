import { NUMERIC_LOOKUPS, fail, ok } from './kind.js';
import type { KindBehaviour, Parsed } from './kind.js';

const DIGITS = /^\s*\d+\s*$/;

/** A positive integer given as a JSON number or as digits, as its canonical text ("7"). */
function parseAutoId(value: unknown): Parsed {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return ok(String(value));
  if (typeof value === 'string' && DIGITS.test(value) && Number.isSafeInteger(Number(value)) && Number(value) > 0) return ok(String(Number(value)));
  return fail('A valid integer is required.');
}

/**
 * Auto-increment integer primary key (AuthoredModel `id_type: 'integer'`, e.g. `auth.group`).
 * Rows carry the id as canonical text in memory, like UUIDs, so maps, URLs and natural slugs
 * treat both alike; the column is an integer and the API renders a JSON number.
 */
export const autoIdKind: KindBehaviour = {
  storage: 'integer',
  optionsType: 'integer',
  lookups: NUMERIC_LOOKUPS,
  parse: parseAutoId,
  render: (value) => Number(value),
  /** Any whole number filters (Django's NumberFilter); ids start at 1, so 0 matches nothing. */
  parseFilter: (raw) => (/^\s*-?\d+\s*$/.test(raw) ? ok(String(Number(raw))) : fail('Enter a number.')),
  encode: (value) => Number(value),
  decode: (value) => String(value),
};
