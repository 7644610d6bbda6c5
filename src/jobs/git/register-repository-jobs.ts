import { registerJobs } from '../register.js';
import { repositoryJobsPrefix } from './repository-jobs.js';
import type { Services } from '../../ops/services.js';
import type { FoundJob } from '../catalog.js';

/** Whether a job module belongs to the repository of `slug`. */
export function ownedByRepository(slug: string, moduleName: string): boolean {
  const prefix = repositoryJobsPrefix(slug);
  return moduleName === prefix || moduleName.startsWith(`${prefix}.`);
}

/**
 * Brings the Job records of a repository in line with the jobs it now provides (none when it no
 * longer provides jobs: its records become `installed: false`). Returns the lines for the sync log.
 */
export async function registerRepositoryJobs(services: Services, slug: string, jobs: FoundJob[]): Promise<string[]> {
  const model = services.registry.get('extras.job');
  const prefix = repositoryJobsPrefix(slug);
  const before = await services.dialect.db.selectFrom(model.table).select(['module_name', 'job_class_name', 'installed'])
    .where((eb) => eb.or([eb('module_name', '=', prefix), eb('module_name', 'like', `${prefix}.%`)])).execute() as { module_name: string; job_class_name: string; installed: unknown }[];
  const known = new Set(before.map((r) => `${r.module_name}.${r.job_class_name}`));
  await registerJobs(services, jobs, (moduleName) => ownedByRepository(slug, moduleName));
  const present = new Set(jobs.map((j) => `${j.module_name}.${j.job_class_name}`));
  const lines = [...present].map((path) => `${known.has(path) ? 'Refreshed' : 'Created'} Job record for ${path}`);
  for (const row of before) {
    if (row.installed && !present.has(`${row.module_name}.${row.job_class_name}`)) lines.push(`Marking Job record ${row.module_name}.${row.job_class_name} as no longer installed`);
  }
  return lines;
}
