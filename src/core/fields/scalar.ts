import { EXACT_LOOKUPS, NUMERIC_LOOKUPS, STRING_LOOKUPS, fail, ok } from './kind.js';
import type { KindBehaviour, Parsed } from './kind.js';

const CANONICAL_UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const UUID_RE = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/** Canonical lower-case hyphenated UUID, or undefined when `value` is not one. */
export function toUuid(value: unknown): string | undefined {
  if (typeof value === 'string' && CANONICAL_UUID_RE.test(value)) return value;
  if (typeof value !== 'string' || !UUID_RE.test(value.trim())) return undefined;
  const hex = value.trim().replace(/-/g, '').toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const TRUE = new Set(['true', 'True', 'TRUE', '1', 'yes', 'on', 't', 'y']);
const FALSE = new Set(['false', 'False', 'FALSE', '0', 'no', 'off', 'f', 'n']);

function parseBoolean(value: unknown): Parsed {
  if (value === true || value === 1) return ok(true);
  if (value === false || value === 0) return ok(false);
  if (typeof value === 'string' && TRUE.has(value)) return ok(true);
  if (typeof value === 'string' && FALSE.has(value)) return ok(false);
  return fail('Must be a valid boolean.');
}

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME_RE = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** ISO 8601 UTC with microseconds and `Z`, as the reference renders datetimes. */
export function toIsoMicro(date: Date): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

function parseDatetime(value: unknown): Parsed {
  if (typeof value !== 'string' || !DATETIME_RE.test(value.trim())) {
    return fail('Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].');
  }
  const text = value.trim();
  const withZone = /(Z|[+-]\d{2}:?\d{2})$/.test(text) ? text : `${text}Z`;
  const micros = /\.(\d{1,6})/.exec(text)?.[1]?.padEnd(6, '0') ?? '000000';
  const date = new Date(withZone.replace(' ', 'T'));
  if (Number.isNaN(date.getTime())) return fail('Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].');
  return ok(date.toISOString().replace(/\.\d{3}Z$/, `.${micros}Z`));
}

function parseDate(value: unknown): Parsed {
  if (typeof value !== 'string' || !DATE_RE.test(value) || Number.isNaN(new Date(`${value}T00:00:00Z`).getTime())) {
    return fail('Date has wrong format. Use one of these formats instead: YYYY-MM-DD.');
  }
  return ok(value);
}

const passThrough = (v: unknown) => v;

export const scalarKinds: Record<string, KindBehaviour> = {
  boolean: {
    storage: 'boolean',
    optionsType: 'boolean',
    lookups: [],
    parse: parseBoolean,
    render: passThrough,
    parseFilter: (raw) => {
      const parsed = parseBoolean(raw);
      return parsed.ok ? parsed : fail('Select a valid choice. ' + raw + ' is not one of the available choices.');
    },
  },
  uuid: {
    storage: 'uuid',
    optionsType: 'string',
    lookups: EXACT_LOOKUPS,
    parse: (v) => {
      const id = toUuid(v);
      return id ? ok(id) : fail('Must be a valid UUID.');
    },
    render: passThrough,
    parseFilter: (raw) => (toUuid(raw) ? ok(toUuid(raw)) : fail('Enter a valid UUID.')),
  },
  date: {
    storage: 'text',
    optionsType: 'date',
    lookups: NUMERIC_LOOKUPS,
    parse: parseDate,
    render: passThrough,
    parseFilter: (raw) => (DATE_RE.test(raw) ? ok(raw) : fail('Enter a valid date.')),
  },
  datetime: {
    storage: 'text',
    optionsType: 'datetime',
    lookups: NUMERIC_LOOKUPS,
    parse: parseDatetime,
    render: passThrough,
    parseFilter: (raw) => {
      if (DATE_RE.test(raw)) return ok(`${raw}T00:00:00.000000Z`);
      const parsed = parseDatetime(raw);
      return parsed.ok ? parsed : fail('Enter a valid date/time.');
    },
  },
  json: {
    storage: 'json',
    optionsType: 'json',
    lookups: STRING_LOOKUPS,
    parse: (v) => ok(v),
    render: passThrough,
    parseFilter: (raw) => ok(raw),
  },
  /** A JSON value written and read whole, never filtered on (change-record snapshots): stored as text. */
  json_document: {
    storage: 'document',
    optionsType: 'json',
    lookups: STRING_LOOKUPS,
    parse: (v) => ok(v),
    render: passThrough,
    parseFilter: (raw) => ok(raw),
  },
};
