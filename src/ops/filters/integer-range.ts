/** The widest values an integer column holds on every database (PostgreSQL's `integer` and `bigint`). */
const INTEGER_STORAGE_RANGE: Record<string, [number, number]> = {
  integer: [-2147483648, 2147483647],
  bigint: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};

/**
 * A filter value beyond what an integer column can hold compares as the column's nearest bound,
 * so `?vid=99999999999999999999` matches nothing and `?vid__lt=...` everything on every database,
 * instead of failing the statement's cast (the reference compares such a value as a number).
 * Other storages and values pass through.
 */
export function clampToStorage(storage: string, value: unknown): unknown {
  const range = INTEGER_STORAGE_RANGE[storage];
  if (!range || typeof value !== 'number') return value;
  return Math.min(Math.max(value, range[0]), range[1]);
}

/** A whole number given as text, clamped to an integer column's range. */
export function storableInteger(text: string, storage: 'integer' | 'bigint' = 'integer'): number {
  return clampToStorage(storage, Number(text)) as number;
}
