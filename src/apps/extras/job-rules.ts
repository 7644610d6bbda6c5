import type { Rule } from '../../core/registry/types.js';

/** A job hook reacts to at least one action, then as any job button (reference JobHook.clean: the first error only). */
export const jobHookClean: Rule = (ctx) => {
  const { row } = ctx;
  if (!row.type_create && !row.type_update && !row.type_delete) return { __all__: 'You must select at least one type: create, update, and/or delete.' };
  return enabledNeedsRunnableJob(ctx);
};

/** An enabled job hook or job button needs a job that is installed and enabled (reference clean()). */
export const enabledNeedsRunnableJob: Rule = async ({ row, get }) => {
  if (!row.enabled || !row.job_id) return;
  const job = await get('extras.job', row.job_id);
  if (job && !(job.installed && job.enabled)) return { enabled: 'The selected Job is not installed and enabled' };
};
