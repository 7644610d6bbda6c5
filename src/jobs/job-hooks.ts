import { createJobResult } from './results.js';
import { dispatchJob } from './dispatch.js';
import type { Exec } from '../db/store.js';
import type { Row } from '../core/registry/types.js';
import type { PublishedChange } from '../events/publisher.js';
import type { Services } from '../ops/services.js';

type Hook = { row: Row; types: Set<string>; job: Row | undefined };

/** Enabled job hooks with their content types and jobs (three statements, whatever their number). */
async function loadHooks(services: Services, exec: Exec): Promise<Hook[]> {
  const model = services.registry.get('extras.jobhook');
  const rows = (await exec.selectFrom(model.table).selectAll().where('enabled', '=', services.dialect.encode('boolean', true) as never).execute()).map((r) => services.store.decode(model, r));
  if (rows.length === 0) return [];
  const types = await services.store.links(exec, model, model.fieldMap.get('content_types')!, rows.map((r) => r.id));
  const jobs = await services.store.byIds(exec, services.registry.get('extras.job'), [...new Set(rows.map((r) => r.job_id))]);
  return rows.map((row) => ({ row, types: new Set(types.get(row.id) ?? []), job: jobs.find((j) => j.id === row.job_id) }));
}

/**
 * The outbox subscriber of job hooks (the reference's enqueue_job_hooks): for each published
 * change, every enabled hook on its content type and action whose job is installed and enabled
 * gets a job result with `object_change` and a queued run, in the publishing transaction, so each
 * change triggers each hook exactly once. Changes made by job hooks trigger none.
 */
export async function enqueueJobHooks(services: Services, changes: PublishedChange[], exec: Exec): Promise<void> {
  const hooks = await loadHooks(services, exec);
  if (hooks.length === 0) return;
  const model = services.registry.get('extras.objectchange');
  const records = await exec.selectFrom(model.table).select(['id', 'action', 'changed_object_type', 'change_context', 'user_id'])
    .where('id', 'in', changes.map((c) => c.changeId)).orderBy('id').execute();
  for (const record of records) {
    if (record.change_context === 'job-hook') continue;
    const flag = `type_${String(record.action)}`;
    for (const hook of hooks) {
      if (!hook.row[flag] || !hook.types.has(String(record.changed_object_type)) || !hook.job?.installed || !hook.job.enabled) continue;
      const data = { object_change: String(record.id) };
      const result = await createJobResult(services, exec, { job: hook.job, userId: record.user_id ? String(record.user_id) : null, data, queue: 'default' });
      await dispatchJob(services, { jobResultId: result.id, data, baseUrl: '', timeLimit: Number(hook.job.time_limit) || services.config.jobs.timeLimit }, { exec });
    }
  }
}
