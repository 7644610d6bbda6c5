import type { Dialect } from './dialects/dialect.js';

type Entry = { generation: string; value: Promise<unknown> };
const memos = new WeakMap<Dialect, Map<string, Entry>>();

/**
 * `load()` once per write generation of the database (schema-like rows every request reads,
 * such as custom field definitions); every call loads afresh where reading the generation
 * would itself cost a statement. A failed load is not kept.
 */
export async function memoByGeneration<T>(dialect: Dialect, key: string, load: () => Promise<T>): Promise<T> {
  if (!dialect.freeGeneration) return load();
  const generation = await dialect.writeGeneration();
  if (generation === null) return load();
  let entries = memos.get(dialect);
  if (!entries) memos.set(dialect, (entries = new Map()));
  const hit = entries.get(key);
  if (hit && hit.generation === generation) return hit.value as T;
  const value = load();
  entries.set(key, { generation, value });
  value.catch(() => entries?.delete(key));
  return value;
}
