/** Keys of plain ASCII text compare as their bytes do. */
const ASCII = /^[\x00-\x7f]*$/;

/** jsonb's order of object keys: shorter first (in UTF-8 bytes), then byte by byte. */
function compareKeys(a: string, b: string): number {
  if (ASCII.test(a) && ASCII.test(b)) return a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length !== y.length ? x.length - y.length : Buffer.compare(x, y);
}

/**
 * A parsed JSON value with every object's keys in the order a PostgreSQL jsonb column returns
 * them, so a value kept as json text reads back exactly as it did from jsonb. (JavaScript still
 * lists integer-like keys first, as it did for values parsed from jsonb text.)
 */
export function inJsonbOrder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(inJsonbOrder);
  if (value === null || typeof value !== 'object') return value;
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(source).sort(compareKeys)) {
    const item = inJsonbOrder(source[key]);
    // An own "__proto__" key (JSON.parse makes one) stays a key, not the prototype.
    if (key === '__proto__') Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
    else out[key] = item;
  }
  return out;
}
