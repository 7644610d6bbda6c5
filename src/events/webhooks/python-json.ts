/**
 * JSON as Python's `json.dumps(value, ensure_ascii=False)` writes it (the reference's default
 * webhook body): `", "` between items and `": "` after keys, non-ASCII characters as they are.
 * The signature is computed over these bytes, so receivers see the reference's exact body.
 */
export function pythonJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `[${value.map(pythonJson).join(', ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return entries.length === 0 ? '{}' : `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${pythonJson(v)}`).join(', ')}}`;
  }
  if (typeof value === 'number' && !Number.isFinite(value)) return Number.isNaN(value) ? 'NaN' : value > 0 ? 'Infinity' : '-Infinity';
  return JSON.stringify(value);
}

/** Python's `str()` of an aware UTC datetime: `2024-05-01 12:00:00.123000+00:00` (no fraction when it is zero). */
export function pythonTimestamp(date: Date): string {
  const iso = date.toISOString();
  const ms = date.getUTCMilliseconds();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${ms === 0 ? '' : `.${String(ms).padStart(3, '0')}000`}+00:00`;
}
