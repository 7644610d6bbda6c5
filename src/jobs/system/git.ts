import { readConfigContexts, readConfigContextSchemas } from '../git/config-contexts.js';
import { applyOwned } from '../git/owned.js';
import { misplacedFolders } from '../git/misplaced.js';
import { applyLocalContexts, readLocalContexts } from '../git/local-contexts.js';
import { readRepositoryJobs } from '../git/repository-jobs.js';
import { readExportTemplates, readGraphQLQueries } from '../git/templates-queries.js';
import { diffRemote, ensureWorkingCopy, repositoryFolder, revertWorkingCopy } from '../git/working-copy.js';
import { registerRepositoryJobs } from '../git/register-repository-jobs.js';
import { RunJobTaskFailed } from './bulk-actions.js';
import type { ContentRead } from '../git/contents.js';
import type { Exec } from '../../db/store.js';
import type { OwnedKind } from '../git/owned.js';
import type { RepositoryJobs } from '../git/repository-jobs.js';
import type { SystemContext, SystemJob } from './types.js';

type Repo = Record<string, unknown>;

/** What the repository's files say, per kind it may provide (in the order they are created), and its jobs. */
async function readRepository(ctx: SystemContext, repo: Repo, folder: string): Promise<{ kinds: (OwnedKind & { read: ContentRead })[]; locals: ContentRead; jobs: RepositoryJobs | null }> {
  const provided = new Set((repo.provided_contents as string[]) ?? []);
  const { registry } = ctx.system.services;
  const kind = (identifier: string, grouping: string, noun: string, keyOf: OwnedKind['keyOf'], read: () => ContentRead) => {
    const content = provided.has(identifier) ? read() : { items: [], errors: [] };
    return { model: identifier, grouping, noun, keyOf, items: content.items, read: content };
  };
  const byName: OwnedKind['keyOf'] = (row) => String(row.name);
  return {
    kinds: [
      kind('extras.configcontextschema', 'config context schemas', 'config context schema', byName, () => readConfigContextSchemas(folder)),
      kind('extras.configcontext', 'config contexts', 'config context', byName, () => readConfigContexts(folder)),
      kind('extras.exporttemplate', 'export templates', 'export template', (row) => `${String(row.content_type)}:${String(row.name)}`, () => readExportTemplates(folder, (ct) => !!registry.find(ct))),
      kind('extras.graphqlquery', 'graphql queries', 'GraphQL query', byName, () => readGraphQLQueries(folder)),
    ],
    locals: provided.has('extras.configcontext') ? readLocalContexts(folder) : { items: [], errors: [] },
    jobs: provided.has('extras.job') ? await readRepositoryJobs(folder, String(repo.slug)) : null,
  };
}

/** Logs every file that could not be used; true when there was one. */
async function logReadErrors(ctx: SystemContext, read: Awaited<ReturnType<typeof readRepository>>): Promise<boolean> {
  let failed = false;
  for (const kind of read.kinds) {
    for (const error of kind.read.errors) {
      failed = true;
      await ctx.logger.error(error, { grouping: kind.grouping });
    }
  }
  for (const error of read.locals.errors) {
    failed = true;
    await ctx.logger.error(error, { grouping: 'local config contexts' });
  }
  for (const file of read.jobs?.pythonFiles ?? []) await ctx.logger.warning(`Python job file \`${file}\` skipped: this service runs TypeScript and JavaScript jobs only`, { grouping: 'jobs' });
  for (const error of read.jobs?.errors ?? []) {
    failed = true;
    await ctx.logger.error(error, { grouping: 'jobs' });
  }
  return failed;
}

/** Ends a failed sync: the database is as it was, and the working copy goes back to the commit its content came from. */
async function failSync(ctx: SystemContext, repo: Repo, folder: string, reason: string): Promise<never> {
  await ctx.logger.error(`Failed to refresh data provided by ${String(repo.name)}. Please see logs.`);
  await ctx.logger.info('Changes to database records have been reverted.');
  const previous = String(repo.current_head ?? '');
  if (previous) {
    await ctx.logger.info(`Attempting to revert local repository clone to commit ${previous}`);
    await revertWorkingCopy(folder, previous).catch(async (err: Error) => ctx.logger.error(`Unable to revert the local clone: ${err.message}`));
  }
  throw new RunJobTaskFailed(reason);
}

/** Records the commit the repository's content now comes from. */
async function recordHead(ctx: SystemContext, repo: Repo, head: string): Promise<void> {
  const { services } = ctx.system;
  await services.dialect.db.transaction().execute((trx) => services.store.update(trx, services.registry.get('extras.gitrepository'), String(repo.id), { current_head: head }));
}

async function syncRepository(ctx: SystemContext, repo: Repo): Promise<void> {
  await ctx.logger.info(`Creating/refreshing local copy of Git repository "${String(repo.name)}"...`);
  const folder = repositoryFolder(ctx.system.services.config.jobs.gitRoot, String(repo.slug));
  let head: string;
  try {
    head = await ensureWorkingCopy(folder, repo);
  } catch (err) {
    await ctx.logger.error(`Unable to clone or fetch the repository: ${(err as Error).message}`);
    throw new RunJobTaskFailed('Git repository sync failed');
  }
  await ctx.logger.info(`${String(repo.name)}: the current Git repository hash is "${head}"`);
  const read = await readRepository(ctx, repo, folder);
  for (const warning of misplacedFolders(folder, new Set((repo.provided_contents as string[]) ?? []))) await ctx.logger.warning(warning.message, { grouping: warning.grouping });
  if (await logReadErrors(ctx, read)) return failSync(ctx, repo, folder, `Failed to refresh data provided by ${String(repo.name)}. Please see logs.`);
  try {
    const { services, rc } = ctx.system;
    const locals = (trx: Exec) => applyLocalContexts(services, trx, rc, String(repo.id), read.locals.items);
    for (const outcome of await applyOwned(services, rc, String(repo.id), read.kinds, locals)) {
      await ctx.logger[outcome.level](outcome.message, { grouping: outcome.grouping, object: outcome.object ? { display: String(outcome.object.name) } : undefined });
    }
    for (const line of await registerRepositoryJobs(ctx.system.services, String(repo.slug), read.jobs?.jobs ?? [])) await ctx.logger.info(line, { grouping: 'jobs' });
  } catch (err) {
    const body = (err as { body?: unknown }).body;
    await ctx.logger.error(`Error while refreshing data: ${body ? JSON.stringify(body) : (err as Error).message}`);
    return failSync(ctx, repo, folder, `Failed to refresh data provided by ${String(repo.name)}. Please see logs.`);
  }
  await recordHead(ctx, repo, head);
  await ctx.logger.info(`Data refresh from ${String(repo.name)} complete!`);
}

async function dryRunRepository(ctx: SystemContext, repo: Repo): Promise<void> {
  await ctx.logger.info(`Performing a Dry Run on Git repository "${String(repo.name)}"...`);
  const folder = repositoryFolder(ctx.system.services.config.jobs.gitRoot, String(repo.slug));
  let changes: string[];
  try {
    await ctx.logger.info('Fetching from origin');
    changes = await diffRemote(folder, repo);
  } catch (err) {
    await ctx.logger.error((err as Error).message);
    throw new RunJobTaskFailed('Git repository dry run failed');
  }
  for (const line of changes) {
    const [status, ...file] = line.split('\t');
    await ctx.logger.info(`${status} - \`${file.join(' -> ')}\``);
  }
  if (changes.length === 0) await ctx.logger.info('Repository has no changes');
  await ctx.logger.info('Repository dry run successful');
}

const repositoryVariable = (description: string) => ({ repository: { type: 'ObjectVar' as const, model: 'extras.gitrepository', label: 'Git Repository', description } });

export const GitRepositorySync: SystemJob = {
  meta: { name: 'Git Repository: Sync', description: 'Clone and/or pull a Git repository, then refresh data sourced from this repository.', has_sensitive_variables: false },
  variables: repositoryVariable('Git Repository to pull and refresh'),
  async run(ctx, data) {
    await syncRepository(ctx, data.repository as Repo);
    return null;
  },
};

export const GitRepositoryDryRun: SystemJob = {
  meta: { name: 'Git Repository: Dry-Run', description: 'Dry run of Git repository sync - will not update data sourced from this repository.', has_sensitive_variables: false },
  variables: repositoryVariable('Git Repository to dry-run'),
  async run(ctx, data) {
    await dryRunRepository(ctx, data.repository as Repo);
    return null;
  },
};
