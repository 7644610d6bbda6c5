import type { Exec } from '../../db/store.js';

/** The ids plus every ancestor id in a tree table (`parent_id`; one query per level). */
export async function withAncestors(exec: Exec, table: string, ids: string[]): Promise<string[]> {
  const all = new Set(ids);
  let frontier = ids;
  for (let guard = 0; frontier.length > 0 && guard < 100; guard += 1) {
    const rows = await exec.selectFrom(table).select('parent_id').where('id', 'in', frontier).where('parent_id', 'is not', null).execute();
    frontier = rows.map((r) => String(r.parent_id)).filter((id) => !all.has(id));
    for (const id of frontier) all.add(id);
  }
  return [...all];
}
