import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { discoverJobs, importModule, jobsOfModule, moduleFileOf } from '../catalog.js';
import type { FoundJob } from '../catalog.js';

/** The jobs of a working copy: TS/JS modules of `jobs/` (or a `jobs` module at its root), under `<slug>.jobs` as the reference names Git jobs. */
export type RepositoryJobs = { jobs: FoundJob[]; errors: string[]; pythonFiles: string[] };

/** The module-name prefix of a repository's jobs. */
export function repositoryJobsPrefix(slug: string): string {
  return `${slug}.jobs`;
}

/** Python files below `dir` (relative paths), which this service cannot run. */
function pythonFiles(dir: string, rel = ''): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).sort().flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name.startsWith('.') ? [] : pythonFiles(full, path.join(rel, name));
    return name.endsWith('.py') ? [path.join(rel, name)] : [];
  });
}

/** Loads the jobs a working copy provides; modules that fail to load are errors naming the module. */
export async function readRepositoryJobs(folder: string, slug: string): Promise<RepositoryJobs> {
  const prefix = repositoryJobsPrefix(slug);
  const python = [...pythonFiles(path.join(folder, 'jobs'), 'jobs'), ...(existsSync(path.join(folder, 'jobs.py')) ? ['jobs.py'] : [])];
  const found = await discoverJobs(path.join(folder, 'jobs'), prefix);
  const errors = found.broken.map((b) => `Error in loading Jobs from Git repository: ${b.module_name}: ${b.error}`);
  const rootModule = moduleFileOf(folder, 'jobs');
  if (rootModule) {
    try {
      found.jobs.push(...jobsOfModule(prefix, await importModule(rootModule), rootModule));
    } catch (err) {
      errors.push(`Error in loading Jobs from Git repository: ${prefix}: ${(err as Error).message}`);
    }
  }
  if (!rootModule && !existsSync(path.join(folder, 'jobs')) && python.length === 0) errors.push('No `jobs` submodule found in Git repository');
  return { jobs: found.jobs, errors, pythonFiles: python };
}
