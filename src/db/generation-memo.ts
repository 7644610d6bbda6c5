import type { Dialect } from './dialects/dialect.js';

/** Entries of one write generation; a new generation starts an empty table. */
type Memo = { generation: string; values: Map<string, Promise<unknown>> };
const memos = new WeakMap<Dialect, Memo>();

/** Keys kept per generation (token look-ups are keyed by client input): beyond it the table starts over. */
const MAX_KEYS = 1000;

/**
 * `load()` once per write generation of the database (rows every request reads: custom field
 * definitions, token look-ups). `generation` is one the caller already read (a request's);
 * without it the generation is read here where that costs no statement, and elsewhere every
 * call loads afresh. A failed load is not kept.
 */
export async function memoByGeneration<T>(dialect: Dialect, key: string, load: () => Promise<T>, generation?: Promise<string | null>): Promise<T> {
  if (!generation && !dialect.freeGeneration) return load();
  const current = await (generation ?? dialect.writeGeneration());
  if (current === null) return load();
  let memo = memos.get(dialect);
  if (!memo || memo.generation !== current || memo.values.size >= MAX_KEYS) memos.set(dialect, (memo = { generation: current, values: new Map() }));
  const hit = memo.values.get(key);
  if (hit) return hit as Promise<T>;
  const value = load();
  const values = memo.values;
  values.set(key, value);
  value.catch(() => values.delete(key));
  return value;
}
