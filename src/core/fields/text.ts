import { STRING_LOOKUPS, fail, ok } from './kind.js';
import type { KindBehaviour, Parsed } from './kind.js';
import type { ResolvedField } from '../registry/types.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const URL_RE = /^(https?|ftp):\/\/[^\s/$.?#].[^\s]*$/i;
const COLOR = /^[0-9a-f]{6}$/;
const SLUG = /^[-a-zA-Z0-9_]+$/;

function parseString(value: unknown, field: ResolvedField): Parsed {
  if (typeof value === 'number' || typeof value === 'boolean') value = String(value);
  if (typeof value !== 'string') return fail('Not a valid string.');
  if (value === '' && !field.blank) return fail('This field may not be blank.');
  if (field.max_length !== undefined && value.length > field.max_length) {
    return fail(`Ensure this field has no more than ${field.max_length} characters.`);
  }
  if (field.min_length !== undefined && value.length < field.min_length && value !== '') {
    return fail(`Ensure this field has at least ${field.min_length} characters.`);
  }
  return ok(value);
}

/** String kind with an extra format check applied to non-empty values. */
function withFormat(check: (v: string) => boolean, message: string): KindBehaviour['parse'] {
  return (value, field) => {
    const parsed = parseString(value, field);
    if (!parsed.ok || parsed.value === '') return parsed;
    return check(parsed.value as string) ? parsed : fail(message);
  };
}

const base = {
  storage: 'text',
  optionsType: 'string',
  lookups: STRING_LOOKUPS,
  render: (v: unknown) => v,
  parseFilter: (raw: string) => ok(raw),
} as const;

function isTimeZone(v: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: v });
    return true;
  } catch {
    return false;
  }
}

/** An image field (a string declared `options_type: 'image upload'`) without a file renders null, as the reference's ImageField. */
const renderString = (v: unknown, field: ResolvedField) => (v === '' && field.options_type === 'image upload' ? null : v);

export const textKinds: Record<string, KindBehaviour> = {
  string: { ...base, parse: parseString, render: renderString },
  text: { ...base, parse: parseString },
  password: { ...base, parse: parseString },
  email: { ...base, optionsType: 'email', parse: withFormat((v) => EMAIL.test(v), 'Enter a valid email address.') },
  url: { ...base, optionsType: 'url', parse: withFormat((v) => URL_RE.test(v), 'Enter a valid URL.') },
  slug: { ...base, optionsType: 'slug', parse: withFormat((v) => SLUG.test(v), 'Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.') },
  color: { ...base, parse: withFormat((v) => COLOR.test(v), 'Enter a valid hexadecimal RGB color code.') },
  time_zone: {
    ...base,
    // No time zone renders null, as the reference's TimeZoneSerializerField.
    render: (v: unknown) => (v === '' ? null : v),
    parse: (value, field) => (value === '' ? ok('') : withFormat(isTimeZone, 'A valid timezone is required.')(value, field)),
  },
};
