import path from 'node:path';
import { discoverJobs, importModule, jobsOfModule, moduleFileOf } from './catalog.js';
import { SYSTEM_JOBS } from './system/index.js';
import { ensureCheckoutAt } from './git/checkout.js';
import { ownedByRepository } from './git/register-repository-jobs.js';
import { repositoryFolder } from './git/working-copy.js';
import type { Config } from '../core/config.js';
import type { Row } from '../core/registry/types.js';
import type { Services } from '../ops/services.js';
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

/** The code of a Git repository's job could not be obtained in this process (clone or fetch failed, never synced). */
export class JobCodeUnavailable extends Error {
  name = 'JobCodeUnavailable';
}

/** The Git repository providing jobs that a module name (`<slug>.jobs...`) belongs to, if any. */
async function providingRepository(services: Services, moduleName: string): Promise<Row | undefined> {
  const [slug, jobs] = moduleName.split('.');
  if (jobs !== 'jobs') return undefined;
  const [repo] = await services.store.where(services.dialect.db, services.registry.get('extras.gitrepository'), { slug });
  const provided = (repo?.provided_contents as string[] | undefined) ?? [];
  return repo && provided.includes('extras.job') && ownedByRepository(slug, moduleName) ? repo : undefined;
}

/**
 * The folder holding a repository's code at its recorded head (`current_head`): this process's
 * working copy in GIT_ROOT, cloned or moved there first when it is missing or elsewhere, so a
 * worker that shares no folder with the process that synced runs the code of the last sync.
 */
async function repositoryCode(services: Services, repo: Row): Promise<string> {
  const head = String(repo.current_head ?? '');
  if (!head) throw new JobCodeUnavailable(`Git repository "${String(repo.name)}" has not been synchronized yet`);
  const folder = repositoryFolder(services.config.jobs.gitRoot, String(repo.slug));
  try {
    await ensureCheckoutAt(folder, repo, head);
  } catch (err) {
    throw new JobCodeUnavailable(`Unable to obtain the code of Git repository "${String(repo.name)}" at commit ${head}: ${(err as Error).message}`);
  }
  return folder;
}

/**
 * The code of one job, loaded afresh from its file (undefined when it no longer exists). A job of
 * a Git repository is loaded from this process's working copy at the repository's `current_head`;
 * throws JobCodeUnavailable when that copy cannot be obtained.
 */
export async function loadJob(services: Services, moduleName: string, className: string): Promise<FoundJob | undefined> {
  const system = SYSTEM_JOBS.find((j) => j.module_name === moduleName && j.job_class_name === className);
  if (system) return system;
  const repo = await providingRepository(services, moduleName);
  const file = repo
    ? moduleFileOf(await repositoryCode(services, repo), moduleName, String(repo.slug))
    : moduleFileOf(jobsRoot(services.config), moduleName);
  if (!file) return undefined;
  return jobsOfModule(moduleName, await importModule(file), file).find((j) => j.job_class_name === className);
}
