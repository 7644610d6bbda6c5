import { threadId } from 'node:worker_threads';
import { hostname } from 'node:os';
import { buildJobLogger, buildJobOps } from './context.js';
import { markDone, markStarted } from './results.js';
import { loadJob } from './sources.js';
import { loadPermissions } from '../ops/auth.js';
import type { Row } from '../core/registry/types.js';
import type { Actor, RequestContext, Services } from '../ops/services.js';
import type { JobContext, JobDefinition, JobLogger, JobOps } from './contract.js';
import type { SystemContext } from './system/types.js';
import { saveFile } from './files.js';
import { isSystemModule } from './register.js';
import { dropUploads, openUploads } from './uploads.js';
import type { FoundJob } from './catalog.js';

/** What a run needs besides the database: the cleaned input (never stored for sensitive jobs) and the base of object URLs. */
export type JobRun = { jobResultId: string; data: Record<string, unknown>; baseUrl: string; /** Hard limit in seconds (the job's, else JOBS_TIME_LIMIT). */ timeLimit: number };

/** A run that cannot start; its message is logged and the result fails with it. */
class RunRefused extends Error {
  name = 'RunJobTaskFailed';
}

/** The name a worker reports in `job_result.worker` (the reference's celery worker name). */
export function workerName(): string {
  return `inventory@${hostname()}:${process.pid}.${threadId}`;
}

/**
 * The user the job acts as: their name on the change log and their object permissions on every
 * operation, as the API applies them (the reference's jobs use its ORM, unrestricted: a
 * deliberate difference, so a job cannot do what the user who ran it may not).
 */
async function jobActor(services: Services, user: Row | undefined): Promise<Actor | null> {
  if (!user) return null;
  const permissions = user.is_superuser ? [] : await loadPermissions(services, String(user.id));
  return { id: String(user.id), username: String(user.username), is_superuser: Boolean(user.is_superuser), is_active: Boolean(user.is_active), permissions };
}

/** ObjectVar / MultiObjectVar ids as the API objects the job receives. */
async function resolveObjects(def: JobDefinition, data: Record<string, unknown>, ops: JobOps): Promise<Record<string, unknown>> {
  const out = { ...data };
  for (const [name, spec] of Object.entries(def.variables ?? {})) {
    const value = data[name];
    if (value === null || value === undefined || (spec.type !== 'ObjectVar' && spec.type !== 'MultiObjectVar')) continue;
    const ids = (Array.isArray(value) ? value : [value]).map(String);
    const objects = await Promise.all(ids.map((id) => ops.get(String(spec.model), id)));
    const missing = ids.filter((_, i) => !objects[i]);
    if (missing.length > 0) throw new RunRefused(`Failed to find requested objects for var ${name}: [${missing.join(', ')}]`);
    out[name] = spec.type === 'ObjectVar' ? objects[0] : objects;
  }
  return out;
}

type ContextParts = { services: Services; rc: RequestContext; ops: JobOps; logger: JobLogger; run: JobRun; signal: AbortSignal; system: boolean; onFail: () => void };

/** What `run` receives; jobs built into the service also get the services and request context (`SystemContext`). */
function buildContext(parts: ContextParts): JobContext | SystemContext {
  const { services, rc, logger, run } = parts;
  const ctx: JobContext = {
    ops: parts.ops, logger, user: { id: rc.actor?.id ?? '', username: rc.actor?.username ?? '' }, job_result_id: run.jobResultId, signal: parts.signal,
    fail: async (message, opts) => { parts.onFail(); await logger.failure(message, opts); },
    createFile: async (name, content) => {
      const id = await saveFile(services, { jobResultId: run.jobResultId, name, content });
      await logger.info(`Created file [${name}](/api/extras/file-proxies/${id}/download/)`);
      return id;
    },
  };
  return parts.system ? { ...ctx, system: { services, rc } } : ctx;
}

/** A job's return value as JSON (what cannot be represented becomes null). */
function toJsonValue(value: unknown): unknown {
  if (value === undefined) return null;
  try {
    return JSON.parse(JSON.stringify(value));
  } catch {
    return String(value);
  }
}

async function loadRunRows(services: Services, id: string): Promise<{ result?: Row; job?: Row; user?: Row }> {
  const result = await services.store.byId(services.dialect.db, services.registry.get('extras.jobresult'), id);
  if (!result) return {};
  const job = result.job_model_id ? await services.store.byId(services.dialect.db, services.registry.get('extras.job'), String(result.job_model_id)) : undefined;
  const user = result.user_id ? await services.store.byId(services.dialect.db, services.registry.get('users.user'), String(result.user_id)) : undefined;
  return { result, job, user };
}

/**
 * Runs one job result (the reference's run_job task): marks it started, checks the job may run,
 * resolves its input, calls `run` with the context, deletes the run's uploads, and records the
 * outcome and log entries. Nothing it runs can throw out of it; the caller only enforces the hard
 * time limit.
 */
export async function executeJob(services: Services, run: JobRun): Promise<void> {
  const { result, job, user } = await loadRunRows(services, run.jobResultId);
  if (!result || !(await markStarted(services, run.jobResultId, workerName()))) return;
  const logger = buildJobLogger(services, run.jobResultId);
  let cleanup: (() => Promise<void>) | undefined;
  try {
    if (!job) throw new RunRefused('Unable to find Job database record');
    const found = await loadJob(services, String(job.module_name), String(job.job_class_name)).catch((err: Error) => {
      throw new RunRefused(err.message);
    });
    if (!job.enabled) throw new RunRefused(`Job ${job.name} is not enabled to be run!`);
    if (!found) throw new RunRefused(`Job class not found for class path ${job.module_name}.${job.job_class_name}`);
    cleanup = () => dropUploads(services, logger, found.definition, run.data);
    const { value, failed } = await callJob(services, run, { job, user, found, logger });
    await cleanup();
    if (!failed) await logger.success('Job completed', { grouping: 'post_run' });
    await markDone(services, run.jobResultId, { status: failed ? 'FAILURE' : 'SUCCESS', result: value });
  } catch (err) {
    const error = err instanceof Error ? err : new Error(String(err));
    if (error instanceof RunRefused) await logger.error(error.message, { grouping: 'initialization' });
    await cleanup?.().catch(() => undefined);
    await markDone(services, run.jobResultId, { status: 'FAILURE', result: { exc_type: error.name, exc_message: error.message }, traceback: error.stack ?? `${error.name}: ${error.message}` });
  }
}

/** Builds the context and input of a found job and calls its `run` under the soft time limit; returns its JSON value and whether it called `fail`. */
async function callJob(services: Services, run: JobRun, parts: { job: Row; user?: Row; found: FoundJob; logger: JobLogger }): Promise<{ value: unknown; failed: boolean }> {
  const { job, found, logger } = parts;
  const rc: RequestContext = { actor: await jobActor(services, parts.user), requestId: run.jobResultId, baseUrl: run.baseUrl, routeName: `${job.module_name}.${job.job_class_name}`, changeContext: found.definition.receiver === 'job_hook' ? 'job-hook' : 'job' };
  const ops = buildJobOps(services, rc);
  // Input objects are read as the reference deserializes them: by id, whatever the user may view; uploads from their file proxies.
  const data = await openUploads(services, found.definition, await resolveObjects(found.definition, run.data, buildJobOps(services, { ...rc, actor: null })));
  await logger.info('Running job', { grouping: 'initialization', object: { display: String(job.name) } });
  const softLimit = Number(job.soft_time_limit) || services.config.jobs.softTimeLimit;
  const soft = new AbortController();
  const timer = setTimeout(() => soft.abort(new Error(`SoftTimeLimitExceeded(${softLimit},)`)), softLimit * 1000);
  timer.unref();
  let failed = false;
  const ctx = buildContext({ services, rc, ops, logger, run, signal: soft.signal, system: isSystemModule(found.module_name), onFail: () => { failed = true; } });
  const value = toJsonValue(await Promise.resolve(found.definition.run(ctx, data)).finally(() => clearTimeout(timer)));
  return { value, failed };
}
