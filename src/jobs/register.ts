import { randomUUID } from 'node:crypto';
import { toIsoMicro } from '../core/fields/scalar.js';
import type { Row } from '../core/registry/types.js';
import type { Exec } from '../db/store.js';
import type { Services } from '../ops/services.js';
import type { FoundJob } from './catalog.js';

/** Job fields that follow the code unless an administrator overrode them (`<field>_override`). */
const OVERRIDABLE = ['grouping', 'name', 'description', 'approval_required', 'dryrun_default', 'hidden', 'soft_time_limit', 'time_limit', 'has_sensitive_variables', 'is_singleton'] as const;

/** Module names of the jobs built into the service (enabled when first registered, as the reference's). */
export function isSystemModule(moduleName: string): boolean {
  return moduleName.startsWith('nautobot.');
}

/** The Job record values a definition declares (the reference's defaults for what it leaves out). */
export function declaredFields(found: FoundJob): Record<string, unknown> {
  const meta = found.definition.meta ?? {};
  const vars = found.definition.variables ?? {};
  return {
    grouping: meta.grouping ?? (isSystemModule(found.module_name) ? 'System Jobs' : found.module_name),
    name: meta.name ?? found.job_class_name,
    description: meta.description ?? '',
    approval_required: meta.approval_required ?? false,
    dryrun_default: meta.dryrun_default ?? false,
    hidden: meta.hidden ?? false,
    soft_time_limit: meta.soft_time_limit ?? 0,
    time_limit: meta.time_limit ?? 0,
    has_sensitive_variables: meta.has_sensitive_variables ?? true,
    is_singleton: meta.is_singleton ?? false,
    is_job_hook_receiver: found.definition.receiver === 'job_hook',
    is_job_button_receiver: found.definition.receiver === 'job_button',
    supports_dryrun: vars.dryrun?.type === 'DryRunVar',
    read_only: false,
    installed: true,
  };
}

function queueNames(found: FoundJob): string[] {
  const names = found.definition.meta?.task_queues?.filter((n) => typeof n === 'string' && n) ?? [];
  return names.length > 0 ? [...new Set(names)] : ['default'];
}

/** Job queues by name, created (type celery, as the reference's default) when missing. */
async function ensureQueues(services: Services, trx: Exec, names: string[]): Promise<Map<string, string>> {
  const model = services.registry.get('extras.jobqueue');
  const rows = await trx.selectFrom(model.table).select(['id', 'name']).execute() as { id: string; name: string }[];
  const byName = new Map(rows.map((r) => [r.name, r.id]));
  const stamp = toIsoMicro(new Date());
  const fresh = [...new Set(names)].filter((n) => !byName.has(n)).map((name) => ({ id: randomUUID(), name, description: '', queue_type: 'celery', tenant_id: null, created: stamp, last_updated: stamp, _custom_field_data: {} }));
  if (fresh.length > 0) await services.store.insert(trx, model, fresh);
  for (const row of fresh) byName.set(row.name, row.id);
  return byName;
}

/** Sets a job's queues: the m2m the API shows and the queue assignments, as one list. */
async function setJobQueues(services: Services, trx: Exec, jobId: string, queueIds: string[]): Promise<void> {
  const job = services.registry.get('extras.job');
  await services.store.setLinks(trx, job, job.fieldMap.get('job_queues')!, new Map([[jobId, queueIds]]));
  const assignment = services.registry.get('extras.jobqueueassignment');
  await trx.deleteFrom(assignment.table).where('job_id', '=', jobId).execute();
  await services.store.insert(trx, assignment, queueIds.map((id) => ({ id: randomUUID(), job_id: jobId, job_queue_id: id })));
}

/** The job button a fresh reference database has (re-created at start when missing, as the reference's post-migrate hook does). */
async function ensureDefaultJobButton(services: Services, trx: Exec): Promise<void> {
  const buttons = services.registry.get('extras.jobbutton');
  const name = 'Refresh Dynamic Group Members Cache';
  if ((await services.store.where(trx, buttons, { name })).length > 0) return;
  const [job] = await services.store.where(trx, services.registry.get('extras.job'), { module_name: 'nautobot.core.jobs.groups', job_class_name: 'RefreshDynamicGroupCacheJobButtonReceiver' });
  if (!job) return;
  const stamp = toIsoMicro(new Date());
  const id = randomUUID();
  await services.store.insert(trx, buttons, [{ id, name, enabled: true, text: 'Refresh Members', weight: 100, group_name: '', button_class: 'warning', confirmation: true, job_id: job.id, created: stamp, last_updated: stamp }]);
  await services.store.setLinks(trx, buttons, buttons.fieldMap.get('content_types')!, new Map([[id, ['extras.dynamicgroup']]]));
}

/** What changes on an existing record: declared fields not overridden, and the queues unless overridden. */
function refreshedFields(existing: Row, declared: Record<string, unknown>): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(declared)) {
    const overridden = (OVERRIDABLE as readonly string[]).includes(key) && existing[`${key}_override`];
    if (!overridden && existing[key] !== value) changes[key] = value;
  }
  return changes;
}

/**
 * Brings the Job records in line with the code (the reference's post-migrate job refresh): new
 * jobs are created (system jobs enabled, others disabled until an administrator enables them),
 * known ones follow their code except for overridden fields, and records whose code is gone
 * become `installed: false`. `managed` says which modules this code base answers for.
 */
export async function registerJobs(services: Services, found: FoundJob[], managed: (moduleName: string) => boolean): Promise<void> {
  const model = services.registry.get('extras.job');
  await services.dialect.db.transaction().execute(async (trx) => {
    const queues = await ensureQueues(services, trx, ['default', ...found.flatMap(queueNames)]);
    const existing = (await trx.selectFrom(model.table).selectAll().execute()).map((r) => services.store.decode(model, r));
    const byPath = new Map(existing.map((r) => [`${r.module_name}:${r.job_class_name}`, r]));
    const stamp = toIsoMicro(new Date());
    const names = new Set(existing.map((r) => String(r.name)));
    for (const job of found) {
      const declared = { ...declaredFields(job), task_queues: queueNames(job) };
      const queueIds = queueNames(job).map((n) => queues.get(n)!);
      const row = byPath.get(`${job.module_name}:${job.job_class_name}`);
      if (row) {
        const changes = refreshedFields(row, declared);
        if (!row.default_job_queue_override && row.default_job_queue_id !== queueIds[0]) changes.default_job_queue_id = queueIds[0];
        if (Object.keys(changes).length > 0) await services.store.update(trx, model, row.id, { ...changes, last_updated: stamp });
        if (!row.job_queues_override && 'task_queues' in changes) await setJobQueues(services, trx, row.id, queueIds);
        continue;
      }
      // Job names are unique: a second job declaring a taken name is not registered (rather than failing the start).
      const name = String(declaredFields(job).name);
      if (names.has(name)) continue;
      names.add(name);
      const id = randomUUID();
      const falses = Object.fromEntries(model.columns.filter((c) => c.column?.endsWith('_override')).map((c) => [c.column, false]));
      await services.store.insert(trx, model, [{ id, module_name: job.module_name, job_class_name: job.job_class_name, ...falses, ...declared, enabled: isSystemModule(job.module_name), default_job_queue_id: queueIds[0], created: stamp, last_updated: stamp, _custom_field_data: {} }]);
      await setJobQueues(services, trx, id, queueIds);
    }
    await ensureDefaultJobButton(services, trx);
    const present = new Set(found.map((j) => `${j.module_name}:${j.job_class_name}`));
    const gone = existing.filter((r) => r.installed && managed(String(r.module_name)) && !present.has(`${r.module_name}:${r.job_class_name}`));
    for (const row of gone) await services.store.update(trx, model, row.id, { installed: false, last_updated: stamp });
  });
}
