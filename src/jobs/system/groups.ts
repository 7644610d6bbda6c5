import { listRows } from '../../ops/read.js';
import { toParams } from './bulk-actions.js';
import type { Row } from '../../core/registry/types.js';
import type { SystemContext, SystemJob } from './types.js';

/**
 * Counts a filter-defined group's members by applying its filter as the list API does. This
 * service keeps no membership cache (members are computed when asked), so "refreshing" is
 * checking that the filter still applies and reporting the count.
 */
async function countMembers(ctx: SystemContext, group: Row): Promise<number> {
  const { services, rc } = ctx.system;
  const model = services.registry.find(String(group.content_type));
  if (!model) return 0;
  return (await listRows(services, rc, model, { params: toParams(group.filter), limit: 1, offset: 0 })).count;
}

async function refresh(ctx: SystemContext, group: Record<string, unknown>): Promise<void> {
  const count = await countMembers(ctx, group as Row);
  await ctx.logger.info(`Cache refreshed successfully, now with ${count} members`, { object: group as { display?: string } });
}

export const RefreshDynamicGroupCaches: SystemJob = {
  meta: { name: 'Refresh Dynamic Group Caches', description: 'Re-calculate and re-cache the membership lists of Dynamic Groups.', has_sensitive_variables: false },
  variables: {
    single_group: { type: 'ObjectVar', model: 'extras.dynamicgroup', description: 'Select to refresh only a single specified group instead of all groups', query_params: { group_type: 'dynamic-filter' }, required: false },
  },
  async run(ctx, data) {
    const filters: Record<string, unknown> = data.single_group ? { id: (data.single_group as { id: string }).id } : { group_type: 'dynamic-filter' };
    const groups = (await ctx.ops.list('extras.dynamicgroup', filters)).filter((g) => g.group_type !== 'static');
    if (groups.length === 0) {
      await ctx.logger.info('No relevant dynamic groups were specified, nothing to do.');
      return null;
    }
    await ctx.logger.info('Re-calculating and re-caching group members. This may take some time.');
    for (const group of groups) await refresh(ctx, group);
    await ctx.logger.info('Cache(s) refreshed');
    return null;
  },
};

export const RefreshDynamicGroupCacheJobButtonReceiver: SystemJob = {
  meta: { name: 'Refresh Dynamic Group Cache (Job Button Receiver)', description: 'Re-calculate and re-cache the membership list of a given Dynamic Group.' },
  receiver: 'job_button',
  variables: {
    object_pk: { type: 'StringVar' },
    object_model_name: { type: 'StringVar' },
  },
  async run(ctx, data) {
    const group = data.object_model_name === 'extras.dynamicgroup' ? await ctx.ops.get('extras.dynamicgroup', String(data.object_pk)) : null;
    if (!group) return ctx.fail('This job button should only be used with Dynamic Group records.');
    if (group.group_type === 'static') return ctx.fail('The members of this Dynamic Group are statically defined and do not need to be recalculated.', { object: group });
    await ctx.logger.info('Re-calculating and re-caching group members. This may take some time.', { object: group });
    const count = await countMembers(ctx, group as Row);
    await ctx.logger.success(`Cache refreshed successfully, now with ${count} members`, { object: group });
    return null;
  },
};
