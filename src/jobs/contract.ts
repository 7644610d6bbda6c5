/**
 * The job contract: what a job module in JOBS_ROOT (or a Git repository) exports, and what a job
 * receives when it runs. Job modules need nothing from this service at run time; TypeScript jobs
 * may `import type` these names for checking.
 *
 * A module's named exports that hold an object with a `run` function are its jobs; the export's
 * name is the job's `job_class_name`, the module's path below the root (dots for slashes, no
 * extension) its `module_name`.
 *
 * @example
 * export const CreateLocations: JobDefinition = {
 *   meta: { name: 'Create locations', description: 'Creates N locations' },
 *   variables: { count: { type: 'IntegerVar', min_value: 1, default: 1 } },
 *   async run(ctx, data) {
 *     const created = await ctx.ops.create('dcim.location', { name: 'x', ... });
 *     ctx.logger.success('Created', { object: created });
 *     return { created: 1 };
 *   },
 * };
 */

/** The reference's variable classes (nautobot/extras/jobs.py), by their class name. */
export type VariableType =
  | 'StringVar' | 'TextVar' | 'IntegerVar' | 'BooleanVar' | 'DryRunVar' | 'ChoiceVar' | 'MultiChoiceVar'
  | 'ObjectVar' | 'MultiObjectVar' | 'IPAddressVar' | 'IPAddressWithMaskVar' | 'IPNetworkVar' | 'JSONVar' | 'FileVar';

/** One input of a job; only the options its type reads are used. */
export type VariableSpec = {
  type: VariableType;
  label?: string;
  description?: string;
  /** Default true, as the reference's variables (BooleanVar and DryRunVar default false). */
  required?: boolean;
  default?: unknown;
  min_length?: number;
  max_length?: number;
  /** StringVar: a regular expression the whole value must match. */
  regex?: string;
  min_value?: number;
  max_value?: number;
  /** ChoiceVar / MultiChoiceVar: `[value, label]` pairs. */
  choices?: [string, string][];
  /** ObjectVar / MultiObjectVar: the model, as `app.model` (`dcim.device`). */
  model?: string;
  /** ObjectVar / MultiObjectVar: filters the chosen objects must match (`{role: 'edge'}`). */
  query_params?: Record<string, unknown>;
};

/** Job metadata, as the reference's `class Meta`; unset values take the reference's defaults. */
export type JobMeta = {
  name?: string;
  description?: string;
  /** Grouping shown in lists; defaults to the module's name. */
  grouping?: string;
  approval_required?: boolean;
  dryrun_default?: boolean;
  /** Default true, as the reference: the inputs are not stored with the result, and the job cannot be scheduled. */
  has_sensitive_variables?: boolean;
  hidden?: boolean;
  is_singleton?: boolean;
  /** Seconds; 0 uses the default (JOBS_SOFT_TIME_LIMIT): past it the job is asked to stop (`ctx.signal`). */
  soft_time_limit?: number;
  /** Seconds; 0 uses the default (JOBS_TIME_LIMIT): past it the job's worker is terminated and the result failed. */
  time_limit?: number;
  /** Names of job queues the job may run on (the first is its default); default `['default']`. */
  task_queues?: string[];
  /** Variable names in the order a form shows them. */
  field_order?: string[];
};

/** A log level of job log entries (the reference's LogLevelChoices). */
export type LogLevel = 'debug' | 'info' | 'success' | 'warning' | 'failure' | 'error' | 'critical';

/** Options of one log entry: the object it is about (an API object with `display`/`url`) and its grouping. */
export type LogOptions = { object?: { display?: string; url?: string; name?: string } | null; grouping?: string };

/** Writes job log entries (visible at once through `job-results/{id}/logs/`). */
export type JobLogger = { [L in LogLevel]: (message: string, opts?: LogOptions) => Promise<void> };

/** An API object as the REST API renders it at depth 0. */
export type ApiObject = Record<string, unknown> & { id: string; display?: string; url?: string };

/**
 * The service's own operations, as the REST API performs them: the same validation, one
 * transaction per call, the change log attributed to the user who ran the job (context `job`,
 * request id = the job result's id). Models are named `app.model`; objects are addressed by id.
 */
export type JobOps = {
  create(model: string, data: Record<string, unknown>): Promise<ApiObject>;
  /** Several objects in one transaction, all or none. */
  createMany(model: string, data: Record<string, unknown>[]): Promise<ApiObject[]>;
  update(model: string, id: string, data: Record<string, unknown>): Promise<ApiObject>;
  delete(model: string, id: string): Promise<void>;
  /** Filtered as the API's list (`{name__ic: 'core', status: 'active'}`); every match unless `limit` is given. */
  list(model: string, filters?: Record<string, unknown>, opts?: { limit?: number; offset?: number }): Promise<ApiObject[]>;
  get(model: string, id: string): Promise<ApiObject | null>;
};

/** What a running job receives. */
export type JobContext = {
  ops: JobOps;
  logger: JobLogger;
  /** The user who ran the job. */
  user: { id: string; username: string };
  /** This run's job result id. */
  job_result_id: string;
  /** Aborted when the soft time limit passes. */
  signal: AbortSignal;
  /** Marks the run failed without throwing (the reference's `self.fail()`); logs the message at `failure`. */
  fail(message: string, opts?: LogOptions): Promise<void>;
  /** Saves a file for download through `file-proxies/{id}/download/`; returns the file proxy id. */
  createFile(name: string, content: string | Uint8Array): Promise<string>;
};

/** One job: its meta, its variables (in order), and what it does. */
export type JobDefinition = {
  meta?: JobMeta;
  /**
   * A receiver is run by the service, not by users: `job_hook` runs for object changes a job hook
   * matches (variable `object_change`), `job_button` for the object a job button was pressed on
   * (variables `object_pk` and `object_model_name`).
   */
  receiver?: 'job_hook' | 'job_button';
  variables?: Record<string, VariableSpec>;
  /** Receives the validated variables (ObjectVar as the object, FileVar as `{name, content}`); returns the job's result (JSON). */
  run(ctx: JobContext, data: Record<string, unknown>): unknown;
};
