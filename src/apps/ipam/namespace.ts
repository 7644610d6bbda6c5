import { randomUUID } from 'node:crypto';
import { toIsoMicro } from '../../core/fields/scalar.js';
import type { Exec } from '../../db/store.js';
import type { Row } from '../../core/registry/types.js';
import type { Services } from '../../ops/services.js';

/** Name of the default namespace (catalogue: get-or-create by name when a default is needed). */
export const GLOBAL_NAMESPACE = 'Global';

/** Id of the Global namespace, created when absent (a fresh database already holds it). */
export async function globalNamespaceId(services: Services, exec: Exec): Promise<string> {
  const model = services.registry.get('ipam.namespace');
  const [found] = await services.store.where(exec, model, { name: GLOBAL_NAMESPACE });
  if (found) return found.id;
  const now = toIsoMicro(new Date());
  const row = { id: randomUUID(), name: GLOBAL_NAMESPACE, description: 'Default Global namespace.', location_id: null, _custom_field_data: {}, created: now, last_updated: now } as Row;
  await services.store.insert(exec, model, [row]);
  return row.id;
}

/** `globalNamespaceId` looked up at most once for the objects of one write. */
export function globalNamespaceOnce(services: Services, exec: Exec): () => Promise<string> {
  let id: Promise<string> | undefined;
  return () => (id ??= globalNamespaceId(services, exec));
}

/** parseInput of models whose `namespace` defaults to Global when omitted (VRFs). */
export async function defaultToGlobal(ctx: { services: Services; exec: Exec; plans: { row: Row; errors: Record<string, string[]> }[] }): Promise<void> {
  const globalId = globalNamespaceOnce(ctx.services, ctx.exec);
  for (const plan of ctx.plans) {
    if (!plan.row.namespace_id && !plan.errors.namespace) plan.row.namespace_id = await globalId();
  }
}
