import type { Random } from './random.js';

/** What the fuzzer knows of the data: real ids and URLs to mix into wrong values. */
export type Known = { ids: string[]; urls: string[]; names: string[] };

/** Text that has broken parsers, codecs, SQL and regex engines somewhere. */
const NASTY_TEXT = [
  '', ' ', 'null', 'None', 'NULL', 'NoObject', 'true', 'False', '0', '-1', '1.5', '1e309', '-0', 'NaN', 'Infinity',
  '99999999999999999999999', '9223372036854775808', '-9223372036854775809', '18446744073709551616', '0x10',
  "' OR 1=1 --", '"; DROP TABLE x; --', '\\', '%', '_', '%%', '\\%', '*', '?', '../../etc/passwd', '\u0000', 'a\u0000b',
  '\ud800', '💥🔥', 'İı', 'ß', '\r\n', '\t', '<script>alert(1)</script>', '{{ 7*7 }}', '${x}', '__proto__', 'constructor',
  '(a+)+$', '(a|a)*$', '[z-a]', '(a', 'a{2,1}', '(a)\\1', '(?=a)', '(?<!a)b', '\\p{Zzz}', '.*.*.*.*.*.*=',
  'a;b', 'a;b;c;d;e;f', ';', 'a:b', 'a,b,c', '2024-13-45', '2024-02-30', '2024-01-01T25:61:61Z', '10.0.0.0/33',
  '256.1.1.1', '10.0.0.1/0', '::/0', '::1/129', 'fe80::1%eth0', '1.2.3', 'aa:bb:cc', 'zz:zz:zz:zz:zz:zz', '#ff00zz',
  'http://', 'javascript:alert(1)', 'x'.repeat(256), 'x'.repeat(5000), 'é'.repeat(300),
];

/** A string meant to be wrong somewhere. */
export function nastyText(r: Random, known: Known): string {
  return r.weighted<() => string>([
    [8, () => r.pick(NASTY_TEXT)],
    [2, () => r.uuid()],
    [2, () => (known.ids.length ? r.pick(known.ids) : r.uuid())],
    [1, () => (known.urls.length ? r.pick(known.urls) : 'http://x/api/')],
    [2, () => (known.names.length ? r.pick(known.names) : 'x')],
    [1, () => String(r.int(2 ** 31) - 2 ** 30)],
  ])();
}

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i += 1) value = i % 2 ? [value] : { k: value };
  return value;
}

/** A JSON value of any type, often of the wrong one for where it goes. */
export function nastyJson(r: Random, known: Known, depth = 0): unknown {
  return r.weighted<() => unknown>([
    [6, () => nastyText(r, known)],
    [1, () => null],
    [1, () => r.chance(0.5)],
    [2, () => r.pick([0, -1, 1, 1.5, -0.5, 2 ** 53 + 1, 1e308, -1e308, 32768, 65536, 2 ** 31, -(2 ** 31) - 1, 1e22])],
    [1, () => ({})],
    [1, () => []],
    [1, () => ({ id: r.chance(0.5) ? r.uuid() : nastyText(r, known) })],
    [1, () => ({ name: nastyText(r, known) })],
    [1, () => (depth < 2 ? [nastyJson(r, known, depth + 1), nastyJson(r, known, depth + 1)] : [])],
    [1, () => (depth < 2 ? { [nastyText(r, known).slice(0, 40) || 'k']: nastyJson(r, known, depth + 1) } : {})],
    [0.2, () => nested(r.pick([50, 500, 3000]))],
    [0.2, () => JSON.parse('{"__proto__": {"polluted": 1}, "constructor": {"prototype": {"x": 1}}}')],
  ])();
}

/** A plausible value for an OPTIONS field description, or a wrong one. */
export function fieldValue(r: Random, known: Known, field: { type?: string; choices?: { value: unknown }[]; max_length?: number }): unknown {
  if (r.chance(0.5)) return nastyJson(r, known);
  if (field.choices?.length && r.chance(0.7)) return r.pick(field.choices).value;
  switch (field.type) {
    case 'integer': return r.pick([0, 1, 5, -5, 100, 2 ** 40]);
    case 'boolean': return r.chance(0.5);
    case 'float': case 'decimal': return r.pick([0, 1.25, -3.5, 1e10]);
    case 'date': return r.pick(['2024-01-01', '1900-01-01', '9999-12-31']);
    case 'datetime': return r.pick(['2024-01-01T00:00:00Z', '2024-01-01 00:00', '2024-01-01T00:00:00+14:00']);
    case 'string': return r.chance(0.5) ? `fz-${r.int(1e6)}` : 'x'.repeat(Math.min((field.max_length ?? 300) + r.int(3) - 1, 6000));
    default: return known.ids.length && r.chance(0.6) ? r.pick(known.ids) : nastyJson(r, known);
  }
}

/** A query-string value for a filter whose OpenAPI schema is `schema`. */
export function queryValue(r: Random, known: Known, schema: { type?: string; format?: string; enum?: unknown[]; items?: any } | undefined): string {
  const item = schema?.type === 'array' ? schema.items ?? {} : schema ?? {};
  if (r.chance(0.6)) return nastyText(r, known);
  if (item.enum?.length && r.chance(0.7)) return String(r.pick(item.enum));
  switch (item.type) {
    case 'integer': case 'number': return String(r.pick([0, 1, -1, 10, 4096]));
    case 'boolean': return r.pick(['true', 'false', 'True', '1', '0']);
    default: return item.format === 'uuid' && known.ids.length ? r.pick(known.ids) : `fz-${r.int(100)}`;
  }
}

/** Malformed or hostile JSON request text. */
export function brokenJsonText(r: Random, known: Known): string {
  const valid = JSON.stringify(nastyJson(r, known));
  return r.weighted<() => string>([
    [2, () => valid.slice(0, Math.max(1, r.int(valid.length)))],
    [1, () => r.pick(['{', '[', '{"a":}', '{"a":1,}', '[1,]', '{a:1}', "{'a':1}", 'NaN', 'undefined', '{"a":1}{"b":2}', '\u0000', '\ufeff{}', '"\\ud800"', '1e99999', '-'])],
    [1, () => `${'['.repeat(20000)}${']'.repeat(20000)}`],
    [1, () => `[${Array.from({ length: 200 }, () => '{}').join(',')}`],
    [1, () => JSON.stringify({ a: 'x'.repeat(1000) }).replace('"a"', '"a\\u00zz"')],
  ])();
}

/** Malformed or hostile CSV request text whose header names `columns`. */
export function csvText(r: Random, known: Known, columns: string[]): string {
  const header = Array.from({ length: 1 + r.int(4) }, () => (r.chance(0.8) && columns.length ? r.pick(columns) : r.pick(['id', 'relationships', 'custom_fields', 'cf_x', 'status__name', 'parent__name', '', '"', 'a,b'])));
  const cell = () => {
    const text = r.chance(0.3) ? r.pick(['NULL', 'NoObject', '', '"', '""', 'a"b', 'x\ny', '[]', '{}', '{"a":', 'true']) : nastyText(r, known);
    return /[",\n]/.test(text) && r.chance(0.8) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  const rows = Array.from({ length: r.int(4) }, () => Array.from({ length: header.length + r.int(3) - 1 }, cell).join(','));
  return [header.join(','), ...rows].join(r.chance(0.2) ? '\r\n' : '\n');
}
