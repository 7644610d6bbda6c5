import { chunk } from '../../../db/store.js';
import type { Exec } from '../../../db/store.js';
import type { ResolvedModel, Row } from '../../../core/registry/types.js';
import type { Services } from '../../../ops/services.js';

/** Orders rows by a text column the way SQLite's index on it answers an `IN (...)` (byte order). */
export function byText(column: string): (a: Row, b: Row) => number {
  return (a, b) => {
    const [x, y] = [String(a[column]), String(b[column])];
    return x < y ? -1 : x > y ? 1 : 0;
  };
}

/**
 * `store.byIds`, each IN list's rows by id: the order SQLite's primary key index answers in,
 * kept on PostgreSQL, whose order would follow where earlier updates left the rows (change
 * records are numbered in this order).
 */
export async function rowsInIdOrder(services: Services, exec: Exec, model: ResolvedModel, ids: unknown[]): Promise<Row[]> {
  const unique = [...new Set(ids.filter((id): id is string => typeof id === 'string'))];
  const rows: Row[] = [];
  for (const part of chunk(unique)) rows.push(...(await services.store.byIds(exec, model, part)).sort(byText('id')));
  return rows;
}
