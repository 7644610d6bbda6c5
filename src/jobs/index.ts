import { stopJobs } from './dispatch.js';
import { ownedByRepository } from './git/register-repository-jobs.js';
import { registerJobs } from './register.js';
import { registerJobRoutes } from './routes.js';
import { registerScheduleRoutes } from './schedule-routes.js';
import { loadAllJobs } from './sources.js';
import { startScheduler } from './scheduler.js';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../ops/services.js';

/** Loads the jobs' code and brings their Job records up to date (the process that migrates does it). */
export async function refreshJobs(services: Services, log: (message: string) => void = console.warn): Promise<void> {
  const { jobs, broken } = await loadAllJobs(services.config);
  for (const module of broken) log(`Job module ${module.module_name} (${module.file}) could not be loaded: ${module.error}`);
  const brokenNames = new Set(broken.map((b) => b.module_name));
  // Records of a module that failed to load stay as they are until it loads again; those of Git
  // repositories are their syncs' to change.
  const repositories = await services.dialect.db.selectFrom(services.registry.get('extras.gitrepository').table).select('slug').execute() as { slug: string }[];
  const fromRepository = (moduleName: string) => repositories.some((r) => ownedByRepository(r.slug, moduleName));
  await registerJobs(services, jobs, (moduleName) => !brokenNames.has(moduleName) && !fromRepository(moduleName));
}

/** Jobs: their records at start (when `refresh`), their routes, and the job threads stopped with the app. */
export async function registerJobsPlatform(app: FastifyInstance, services: Services, opts: { refresh: boolean }): Promise<void> {
  if (opts.refresh) await refreshJobs(services, (message) => app.log.warn(message));
  registerJobRoutes(app, services);
  registerScheduleRoutes(app, services);
  const stopScheduler = services.config.jobs.schedulerMs > 0 ? startScheduler(services, (err) => app.log.error(err)) : () => undefined;
  app.addHook('onClose', async () => {
    stopScheduler();
    await stopJobs(services);
  });
}
