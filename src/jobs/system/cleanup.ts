import { scopeClause } from '../../ops/read.js';
import { and } from '../../db/query/sql-helpers.js';
import { toIsoMicro } from '../../core/fields/scalar.js';
import { requireModelPermission } from './bulk-actions.js';
import type { ResolvedModel } from '../../core/registry/types.js';
import type { SystemContext, SystemJob } from './types.js';

/** The reference's CHANGELOG_RETENTION default, in days. */
const RETENTION_DAYS = 90;

/** Deletes the rows of `model` older than `cutoff` (by `column`) that the user may delete; returns how many. */
async function deleteOlder(ctx: SystemContext, model: ResolvedModel, column: string, cutoff: string, dependents: { table: string; column: string }[]): Promise<{ count: number; dependents: number[] }> {
  const { services, rc } = ctx.system;
  return services.dialect.db.transaction().execute(async (trx) => {
    const where = await scopeClause(services, rc, model, new Map(), 'delete', trx);
    const ids = (await trx.selectFrom(model.table).select(`${model.table}.id`).where(and([where, (eb) => eb(`${model.table}.${column}`, '<', cutoff)])).execute()).map((r) => String(r.id));
    const counts: number[] = [];
    for (const dep of dependents) {
      let n = 0;
      for (let i = 0; i < ids.length; i += 500) n += Number((await trx.deleteFrom(dep.table).where(dep.column, 'in', ids.slice(i, i + 500)).executeTakeFirst()).numDeletedRows);
      counts.push(n);
    }
    for (let i = 0; i < ids.length; i += 500) await services.store.deleteIds(trx, model, ids.slice(i, i + 500));
    return { count: ids.length, dependents: counts };
  });
}

export const LogsCleanup: SystemJob = {
  meta: { name: 'Logs Cleanup', description: 'Delete ObjectChange and/or JobResult/JobLogEntry records older than a specified cutoff.', has_sensitive_variables: false },
  variables: {
    cleanup_types: { type: 'MultiChoiceVar', choices: [['extras.JobResult', 'Job results'], ['extras.ObjectChange', 'Change logs']], required: true },
    max_age: { type: 'IntegerVar', description: 'Maximum age of records to retain, in days. Leave empty to use the CHANGELOG_RETENTION setting as the maximum.', label: 'Max Age', min_value: 0, required: false },
  },
  async run(ctx, data) {
    const { registry } = ctx.system.services;
    const types = (data.cleanup_types as string[]) ?? [];
    const maxAge = data.max_age === null || data.max_age === undefined ? RETENTION_DAYS : Number(data.max_age);
    const results = registry.get('extras.jobresult');
    const changes = registry.get('extras.objectchange');
    if (types.includes('extras.JobResult')) await requireModelPermission(ctx, results, 'delete', 'delete');
    if (types.includes('extras.ObjectChange')) await requireModelPermission(ctx, changes, 'delete', 'delete');
    const cutoff = toIsoMicro(new Date(Date.now() - maxAge * 86_400_000));
    const result: Record<string, number> = {};
    if (types.includes('extras.JobResult')) {
      await ctx.logger.info(`Deleting JobResult records prior to ${cutoff}`);
      const done = await deleteOlder(ctx, results, 'date_done', cutoff, [{ table: 'extras_joblogentry', column: 'job_result_id' }, { table: 'extras_fileproxy', column: 'job_result_id' }]);
      Object.assign(result, { 'extras.JobResult': done.count, 'extras.JobLogEntry': done.dependents[0], ...(done.dependents[1] ? { 'extras.FileProxy': done.dependents[1] } : {}) });
    }
    if (types.includes('extras.ObjectChange')) {
      await ctx.logger.info(`Deleting ObjectChange records prior to ${cutoff}`);
      result['extras.ObjectChange'] = (await deleteOlder(ctx, changes, 'time', cutoff, [])).count;
    }
    return result;
  },
};
