import type { Exec } from '../../db/store.js';
import type { ResolvedModel } from '../../core/registry/types.js';
import type { Services } from '../../ops/services.js';

/** The ids plus every ancestor id in a tree model (the store's one recursive query). */
export async function withAncestors(services: Services, exec: Exec, model: ResolvedModel, ids: string[]): Promise<string[]> {
  const ancestors = await services.store.ancestorsOf(exec, model, ids);
  return [...new Set([...ids, ...ancestors.map((row) => row.id)])];
}
