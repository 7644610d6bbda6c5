import { pyRepr } from '../references/python-repr.js';

/** Cell text for a null scalar (api-behaviour.md section 12). */
export const CSV_NULL = 'NULL';
/** Cell text for a related object that does not exist. */
export const CSV_NO_OBJECT = 'NoObject';

/** JSON text as Python's `json.dumps` writes it: `, ` and `: ` separators, non-ASCII escaped. */
export function toPyJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(toPyJson).join(', ')}]`;
  return `{${Object.entries(value).map(([k, v]) => `${toPyJson(k)}: ${toPyJson(v)}`).join(', ')}}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Python's `str()` of a scalar as the csv module writes it. */
function toPyStr(value: unknown): string {
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  return pyRepr(value);
}

/** One list item: related objects by id, choices by value, the rest as text. */
function toListItem(item: unknown): string {
  if (item === null || item === undefined) return '';
  if (isRecord(item) && 'id' in item) return String(item.id);
  if (isRecord(item) && 'value' in item && 'label' in item) return toPyStr(item.value);
  return toPyStr(item);
}

/**
 * A rendered API value as CSV text, following the reference renderer: null is empty, a
 * choice is its value, an object reference its id, other objects JSON, lists comma-joined.
 */
export function toCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (isRecord(value)) {
    if ('value' in value && 'label' in value) return toPyStr(value.value);
    if ('id' in value) return String(value.id);
    return toPyJson(value);
  }
  if (Array.isArray(value)) return value.map(toListItem).join(',');
  return toPyStr(value);
}

const NEEDS_QUOTES = /[",\r\n]/;

/** A field as Python's csv.writer (QUOTE_MINIMAL) writes it: quoted, quotes doubled, when it must be. */
function csvField(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** CSV lines as Python's csv.writer writes them (CRLF; fields with delimiters, quotes or line breaks quoted). */
export function toCsvLines(rows: string[][]): string {
  let out = '';
  for (const row of rows) out += `${row.map(csvField).join(',')}\r\n`;
  return out;
}
