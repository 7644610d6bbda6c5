import { CompiledQuery } from 'kysely';
import { insideTransaction } from './transaction-guard.js';
import type { Kysely, LogEvent } from 'kysely';
import type { SharedReads } from './postgres-shared-reads.js';
import type { Dialect } from './dialect.js';

/** Column-name lists kept per statement text, so the same text gives the same array (the store compiles a decoder per array). */
const MAX_NAMES = 2000;

/**
 * The dialect's `readRows` and `readArrays` (issue 22): a read on the root handle outside a
 * transaction goes straight to the shared batches (postgres-shared-reads.ts), without Kysely's
 * executor (its promise chain and plugins cost more than decoding a small statement's rows), and
 * `readArrays` takes the rows as pg's arrays, which the store decodes once each. Counted as any
 * statement. Inside a transaction (or on another handle) `readRows` goes through `exec` and
 * `readArrays` declines.
 */
export function directReads(db: Kysely<any>, shared: SharedReads, log: (event: LogEvent) => void): Pick<Dialect, 'readRows' | 'readArrays'> {
  const names = new Map<string, readonly string[]>();
  const direct = (exec: Kysely<any>) => exec === db && !insideTransaction();
  const run = async (text: string, params: readonly unknown[], rowMode?: 'array') => {
    const started = performance.now();
    const result = await shared.query(text, [...params], rowMode);
    log({ level: 'query', query: CompiledQuery.raw(text, [...params]), queryDurationMillis: performance.now() - started });
    return result;
  };
  /** The statement's column names, the array kept for its text while the names stay the same. */
  const namesOf = (text: string, fields: readonly { name: string }[]): readonly string[] => {
    const known = names.get(text);
    if (known && known.length === fields.length && known.every((name, i) => name === fields[i].name)) return known;
    if (names.size >= MAX_NAMES) names.clear();
    const fresh = fields.map((f) => f.name);
    names.set(text, fresh);
    return fresh;
  };
  return {
    async readRows(exec, text, params) {
      if (!direct(exec)) return (await exec.executeQuery<Record<string, unknown>>(CompiledQuery.raw(text, [...params]))).rows;
      return (await run(text, params)).rows;
    },
    async readArrays(exec, text, params) {
      if (!direct(exec)) return null;
      const result = await run(text, params, 'array');
      return { names: namesOf(text, result.fields), rows: result.rows as unknown[][] };
    },
  };
}
