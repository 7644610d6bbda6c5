import type { RouteDoc } from '../api/openapi/route-doc.js';

const OBJECT = { type: 'object', additionalProperties: true } as const;
const INTERVALS = ['immediately', 'future', 'hourly', 'daily', 'weekly', 'custom'];

/** OpenAPI descriptions of the jobs' extra endpoints (the reference's operation ids). */
export const JOB_DOCS: Record<string, RouteDoc> = {
  variables: { get: { summary: 'Get details of the input variables that may/must be specified to run a particular Job.', action: 'list', ok: [200, { schema: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, type: { type: 'string' }, label: { type: 'string' }, help_text: { type: 'string' }, default: {}, required: { type: 'boolean' }, min_length: { type: 'integer' }, max_length: { type: 'integer' }, min_value: { type: 'integer' }, max_value: { type: 'integer' }, choices: {}, model: { type: 'string' } } } } }], errors: [404] } },
  run: {
    post: {
      summary: 'Run the specified Job.', action: 'create',
      body: { schema: { type: 'object', properties: { data: OBJECT, schedule: { type: 'object', properties: { name: { type: 'string' }, start_time: { type: 'string', format: 'date-time' }, interval: { type: 'string', enum: INTERVALS }, crontab: { type: 'string' } }, required: ['interval'] }, task_queue: { type: 'string' }, job_queue: { type: 'string' } } } },
      // The reference's JobMultiPartInputSerializer: these keys, and the job's variables (files included) as the other fields.
      form: { schema: { type: 'object', additionalProperties: true, properties: { _schedule_name: { type: 'string', maxLength: 255 }, _schedule_start_time: { type: 'string', format: 'date-time' }, _schedule_interval: { type: 'string', enum: INTERVALS }, _schedule_crontab: { type: 'string' }, _task_queue: { type: 'string' }, _job_queue: { type: 'string' } } } },
      ok: [201, { schema: { type: 'object', properties: { scheduled_job: { ...OBJECT, nullable: true }, job_result: { ...OBJECT, nullable: true } } } }],
      errors: [400, 404],
    },
  },
  logs: { get: { summary: 'The log entries of a job result.', action: 'retrieve', ok: [200, { model: 'extras.joblogentry', many: 'array' }], errors: [404] } },
  download: { get: { summary: 'Download the specified FileProxy.', action: 'retrieve', ok: [200, { schema: { type: 'string', format: 'binary' } }], errors: [404] } },
  approve: { post: { summary: 'Approve a scheduled job that requires approval.', action: 'create', query: { force: { schema: { type: 'boolean' }, description: 'force execution even if start time has passed' } }, ok: [200, { model: 'extras.scheduledjob' }], errors: [400, 404] } },
  deny: { post: { summary: 'Deny (delete) a scheduled job that requires approval.', action: 'create', ok: [200, { schema: { nullable: true } }], errors: [404] } },
  dryRun: { post: { summary: 'Run the job of a scheduled job now, as a dry run.', action: 'create', ok: [200, { model: 'extras.jobresult' }], errors: [404] } },
  sync: { post: { summary: 'Enqueue pull git repository and refresh data.', action: 'create', ok: [200, { schema: { type: 'object', properties: { message: { type: 'string' }, job_result: OBJECT } } }], errors: [404] } },
};
