import path from 'node:path';
import { discoverJobs, importModule, jobsOfModule, moduleFileOf } from './catalog.js';
import { SYSTEM_JOBS } from './system/index.js';
import type { Config } from '../core/config.js';
import type { BrokenModule, FoundJob } from './catalog.js';

/** The absolute JOBS_ROOT. */
export function jobsRoot(config: Config): string {
  return path.resolve(config.jobs.root);
}

/** Every job the service provides: its own system jobs, then those of JOBS_ROOT. */
export async function loadAllJobs(config: Config): Promise<{ jobs: FoundJob[]; broken: BrokenModule[] }> {
  const local = await discoverJobs(jobsRoot(config));
  return { jobs: [...SYSTEM_JOBS, ...local.jobs], broken: local.broken };
}

/** The code of one job, loaded afresh from its file (undefined when it no longer exists). */
export async function loadJob(config: Config, moduleName: string, className: string): Promise<FoundJob | undefined> {
  const system = SYSTEM_JOBS.find((j) => j.module_name === moduleName && j.job_class_name === className);
  if (system) return system;
  // A job from a Git repository (`<slug>.jobs...`) lives in that repository's working copy.
  const file = moduleFileOf(jobsRoot(config), moduleName) ?? moduleFileOf(path.resolve(config.jobs.gitRoot), moduleName);
  if (!file) return undefined;
  return jobsOfModule(moduleName, await importModule(file), file).find((j) => j.job_class_name === className);
}
