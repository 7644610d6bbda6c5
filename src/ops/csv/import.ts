import { parse } from 'csv-parse/sync';
import { BadRequestError, PayloadTooLargeError } from '../../core/errors.js';
import { isWritable } from '../write/build-item.js';
import { CSV_NO_OBJECT, CSV_NULL } from './cells.js';
import type { ResolvedField, ResolvedModel } from '../../core/registry/types.js';

type Nested = { [key: string]: string | null | Nested };

/** Columns CSV cannot carry: refused rather than silently dropped (api-behaviour.md section 12). */
const NOT_EXPRESSIBLE: Record<string, string> = {
  relationships: 'relationship associations cannot be expressed in CSV; send them as JSON',
  computed_fields: 'computed fields are read-only',
  custom_fields: 'use one cf_<key> column per custom field',
};

/** Drops column groups (`tenant__name`, `tenant__group__name`) whose cells are all `NoObject`. */
function dropMissingObjects(row: Map<string, string>): Map<string, string> {
  const groups = new Map<string, string[]>();
  for (const [key, value] of row) {
    const head = key.split('__')[0];
    groups.set(head, [...(groups.get(head) ?? []), value]);
  }
  return new Map([...row].filter(([key]) => groups.get(key.split('__')[0])?.some((v) => v !== CSV_NO_OBJECT)));
}

/** `a__b` columns become nested objects; `NoObject` and `NULL` cells become null. */
function nest(row: Map<string, string>): Nested {
  const out: Nested = {};
  for (const [key, value] of row) {
    const parts = key.split('__');
    let at = out;
    for (const part of parts.slice(0, -1)) {
      const next = at[part];
      at = (at[part] = next !== null && typeof next === 'object' ? next : {}) as Nested;
    }
    at[parts[parts.length - 1]] = value === CSV_NO_OBJECT || value === CSV_NULL ? null : value;
  }
  return out;
}

/**
 * A nested lookup whose every leaf is null names no object (`parent__parent__name` =
 * NoObject under an existing parent): null, as the reference's LEFT JOIN reads it.
 */
function collapseNulls(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).map(([k, v]) => [k, collapseNulls(v)] as const);
  return entries.every(([, v]) => v === null) ? null : Object.fromEntries(entries);
}

/** `{manufacturer: {name: 'a,b'}, model: 'x,y'}` -> one attribute object per position. */
function splitManyDict(value: Nested, field: string): unknown[] {
  const flat: [string[], string[]][] = [];
  const walk = (obj: Nested, path: string[]) => {
    for (const [k, v] of Object.entries(obj)) {
      if (v !== null && typeof v === 'object') walk(v, [...path, k]);
      else flat.push([[...path, k], (v ?? '').split(',')]);
    }
  };
  walk(value, []);
  const counts = new Set(flat.map(([, values]) => values.length));
  if (counts.size > 1) throw new BadRequestError(`Incorrect number of values provided for the ${field} field`);
  const count = [...counts][0] ?? 0;
  return Array.from({ length: count }, (_, i) => nest(new Map(flat.map(([path, values]) => [path.join('__'), values[i]]))));
}

function parseJsonCell(value: string, field: ResolvedField): unknown {
  if (value === '') return field.nullable ? null : [];
  if (value.startsWith('{') || value.startsWith('[')) {
    try {
      return JSON.parse(value);
    } catch (err) {
      throw new BadRequestError((err as Error).message);
    }
  }
  const parts = value.split(',');
  return parts.every((p) => /^-?\d+$/.test(p.trim())) ? parts.map(Number) : parts;
}

/** One cell (or nested group) as the JSON value the write operations take. */
function toInputValue(field: ResolvedField, key: string, value: string | null | Nested): unknown {
  const relation = field.behaviour.relation;
  if (relation === 'm2m' || relation === 'content_types') {
    if (!value) return [];
    return typeof value === 'string' ? value.split(',') : splitManyDict(value, key);
  }
  if (relation === 'fk') return value ? collapseNulls(value) : null;
  if (field.kind === 'json' && typeof value === 'string') return parseJsonCell(value, field);
  if (value === '' && field.nullable) return null;
  // A blank choice renders as null (exported `NULL`); for a field that cannot be null it means blank.
  if (value === null && !field.nullable && field.blank && field.behaviour.storage === 'text') return '';
  return value;
}

function rowToInput(model: ResolvedModel, counter: number, row: Map<string, string>): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  const grouped = nest(dropMissingObjects(row));
  Object.keys(grouped).forEach((key, index) => {
    if (!key) throw new BadRequestError(`Row ${counter}: Column ${index + 1}: missing/empty header for this column`);
    const value = grouped[key];
    if (key.startsWith('cf_')) {
      data.custom_fields = { ...(data.custom_fields as object), [key.slice(3)]: value === '' ? null : value };
      return;
    }
    if (NOT_EXPRESSIBLE[key]) throw new BadRequestError(`Column "${key}" cannot be imported from CSV: ${NOT_EXPRESSIBLE[key]}.`);
    const field = model.fieldMap.get(key);
    if (!field || (!isWritable(field) && key !== 'id')) return;
    data[key] = toInputValue(field, key, value);
  });
  return data;
}

/**
 * CSV request body -> the list of objects a bulk write takes, as the reference's CSV parser:
 * one object per row, natural-key column groups as attribute lookups, unknown and read-only
 * columns (except `id`) ignored. Malformed CSV is a 400.
 */
export function parseCsvBody(model: ResolvedModel, text: string, maxRows: number): Record<string, unknown>[] {
  let records: string[][];
  try {
    // Parsing stops one row past the limit (the header is a record too): a body of millions of rows is refused, not read.
    records = parse(text, { bom: true, relax_column_count: true, skip_empty_lines: true, to: maxRows + 2 });
  } catch (err) {
    throw new BadRequestError((err as Error).message);
  }
  if (records.length > maxRows + 1) throw new PayloadTooLargeError(`A CSV import may carry at most ${maxRows} rows (MAX_CSV_ROWS).`);
  const [header, ...rows] = records;
  if (!header) return [];
  return rows.map((cells, i) => {
    if (cells.length > header.length) throw new BadRequestError(`Row ${i + 1}: Column ${header.length + 1}: missing/empty header for this column`);
    const row = new Map<string, string>();
    header.forEach((name, col) => { if (col < cells.length) row.set(name, cells[col]); });
    return rowToInput(model, i + 1, row);
  });
}
