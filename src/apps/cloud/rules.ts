import { dataErrors } from '../extras/config-contexts/schema.js';
import { addError, cleanPlans, rowsById } from '../dcim/extensions/support.js';
import type { Rule } from '../../core/registry/types.js';
import type { WriteHookContext } from '../../ops/extensions.js';

/** Cloud networks nest one level only, and never under themselves (reference `CloudNetwork.clean`). */
export const parentHasNoParent: Rule = async ({ row, get }): Promise<Record<string, string> | undefined> => {
  if (!row.parent_id) return undefined;
  const parent = await get('cloud.cloudnetwork', row.parent_id);
  if (parent?.parent_id) return { parent: 'A CloudNetwork may not be the child of a CloudNetwork that itself has a parent.' };
  if (row.parent_id === row.id) return { parent: 'A CloudNetwork may not be its own parent.' };
  return undefined;
};

/** `extra_config` must pass the cloud resource type's `config_schema`, when it has one (reference CloudResourceTypeMixin.clean). */
export async function checkExtraConfig(ctx: WriteHookContext): Promise<void> {
  const plans = cleanPlans(ctx.plans);
  const types = await rowsById(ctx.services, ctx.exec, 'cloud.cloudresourcetype', plans.map((p) => p.row.cloud_resource_type_id));
  for (const plan of plans) {
    const type = types.get(String(plan.row.cloud_resource_type_id));
    if (!type?.config_schema) continue;
    const [, reason] = dataErrors({ id: type.id, name: type.name, data_schema: type.config_schema }, plan.row.extra_config);
    if (reason !== undefined) {
      addError(plan, 'extra_config', `Validation according to CloudResourceType ${String(type.name)} config_schema failed.`);
      addError(plan, 'extra_config', reason);
    }
  }
}
