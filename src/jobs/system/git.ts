import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import YAML from 'yaml';
import { createObjects, deleteObject, updateObject } from '../../ops/crud.js';
import { RunJobTaskFailed } from './bulk-actions.js';
import type { SystemContext, SystemJob } from './types.js';

const run = promisify(execFile);

/** Where a repository's working copy lives: `<GIT_ROOT>/<slug>`. */
export function repositoryFolder(root: string, slug: string): string {
  return path.resolve(root, slug);
}

/** Clones the repository, or fetches and checks out its branch; returns the head commit. */
async function ensureWorkingCopy(folder: string, repo: Record<string, unknown>): Promise<string> {
  const branch = String(repo.branch || 'main');
  if (!existsSync(path.join(folder, '.git'))) {
    mkdirSync(path.dirname(folder), { recursive: true });
    await run('git', ['clone', '--quiet', '--branch', branch, String(repo.remote_url), folder]);
  } else {
    await run('git', ['-C', folder, 'fetch', '--quiet', 'origin', branch]);
    await run('git', ['-C', folder, 'reset', '--quiet', '--hard', `origin/${branch}`]);
  }
  return (await run('git', ['-C', folder, 'rev-parse', 'HEAD'])).stdout.trim();
}

/** Config contexts of `config_contexts/*.json|yaml`: `_metadata` (name, weight, description, is_active, scopes) plus the data. */
function readConfigContexts(folder: string): Record<string, unknown>[] {
  const dir = path.join(folder, 'config_contexts');
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => /\.(json|ya?ml)$/.test(f)).sort().map((file) => {
    const text = readFileSync(path.join(dir, file), 'utf8');
    const parsed = (file.endsWith('.json') ? JSON.parse(text) : YAML.parse(text)) as Record<string, unknown>;
    const { _metadata: meta, ...data } = parsed ?? {};
    if (!meta || typeof meta !== 'object' || !(meta as { name?: unknown }).name) throw new Error(`${file}: no _metadata with a name`);
    return { ...(meta as Record<string, unknown>), data };
  });
}

/** Creates, updates and deletes the config contexts the repository owns, as its files now say (one transaction each). */
async function syncConfigContexts(ctx: SystemContext, repo: Record<string, unknown>, wanted: Record<string, unknown>[]): Promise<void> {
  const { services, rc } = ctx.system;
  const model = services.registry.get('extras.configcontext');
  const owned = await services.store.where(services.dialect.db, model, { owner_object_id: repo.id });
  const byName = new Map(owned.map((r) => [String(r.name), r]));
  for (const item of wanted) {
    const existing = byName.get(String(item.name));
    byName.delete(String(item.name));
    if (existing) await updateObject(services, rc, model, existing.id, new Map(), item, true);
    else await createObjects(services, rc, model, { ...item, owner_content_type: 'extras.gitrepository', owner_object_id: repo.id });
    await ctx.logger.info(`Successfully ${existing ? 'updated' : 'created'} config context ${String(item.name)}`, { grouping: 'config contexts' });
  }
  for (const gone of byName.values()) {
    await deleteObject(services, rc, model, gone.id, new Map());
    await ctx.logger.warning(`Deleted config context ${String(gone.name)}`, { grouping: 'config contexts' });
  }
}

async function syncRepository(ctx: SystemContext, repo: Record<string, unknown>, dryRun: boolean): Promise<void> {
  await ctx.logger.info(`${dryRun ? 'Performing a Dry Run on' : 'Creating/refreshing local copy of'} Git repository "${String(repo.name)}"...`);
  const folder = repositoryFolder(ctx.system.services.config.jobs.gitRoot, String(repo.slug));
  let head: string;
  try {
    head = await ensureWorkingCopy(folder, repo);
  } catch (err) {
    await ctx.logger.error(`Unable to clone or fetch the repository: ${(err as Error).message}`);
    throw new RunJobTaskFailed('Git repository sync failed');
  }
  const provided = new Set((repo.provided_contents as string[]) ?? []);
  if (provided.has('extras.job') && existsSync(path.join(folder, 'jobs'))) await ctx.logger.warning('Python job files are not loaded by this service; skipped', { grouping: 'jobs' });
  if (!provided.has('extras.configcontext')) return;
  let wanted: Record<string, unknown>[];
  try {
    wanted = readConfigContexts(folder);
  } catch (err) {
    await ctx.logger.error(`Error loading config contexts: ${(err as Error).message}`, { grouping: 'config contexts' });
    throw new RunJobTaskFailed('Git repository sync failed; the previous content is left in place');
  }
  if (dryRun) {
    await ctx.logger.info(`Would load ${wanted.length} config contexts at ${head}`);
    return;
  }
  await syncConfigContexts(ctx, repo, wanted);
  await updateObject(ctx.system.services, ctx.system.rc, ctx.system.services.registry.get('extras.gitrepository'), String(repo.id), new Map(), { current_head: head }, true).catch(() => undefined);
}

const repositoryVariable = (description: string) => ({ repository: { type: 'ObjectVar' as const, model: 'extras.gitrepository', label: 'Git Repository', description } });

export const GitRepositorySync: SystemJob = {
  meta: { name: 'Git Repository: Sync', description: 'Clone and/or pull a Git repository, then refresh data sourced from this repository.', has_sensitive_variables: false },
  variables: repositoryVariable('Git Repository to pull and refresh'),
  async run(ctx, data) {
    await syncRepository(ctx, data.repository as Record<string, unknown>, false);
    return null;
  },
};

export const GitRepositoryDryRun: SystemJob = {
  meta: { name: 'Git Repository: Dry-Run', description: 'Dry run of Git repository sync - will not update data sourced from this repository.', has_sensitive_variables: false },
  variables: repositoryVariable('Git Repository to dry-run'),
  async run(ctx, data) {
    await syncRepository(ctx, data.repository as Record<string, unknown>, true);
    return null;
  },
};
