import type { RequestContext, Services } from '../../ops/services.js';
import type { JobContext, JobDefinition } from '../contract.js';

/** What the jobs built into the service receive: the job context, plus the services and the run's request context. */
export type SystemContext = JobContext & { system: { services: Services; rc: RequestContext } };

/** A job built into the service (under the reference's module and class name). */
export type SystemJob = Omit<JobDefinition, 'run'> & { run(ctx: SystemContext, data: Record<string, unknown>): unknown };
