import { BadRequestError, ValidationError } from '../core/errors.js';
import type { FastifyInstance } from 'fastify';

/** A parsed multipart/form-data body, as the run route receives it. */
type MultipartBody = { __multipart: FormData };

/** Accepts multipart/form-data bodies in `scope` (the run route's), parsed with the platform's FormData. */
export function acceptMultipart(scope: FastifyInstance): void {
  // The app's own multipart parser (model routes with image fields) gives way to this scope's.
  if (scope.hasContentTypeParser('multipart/form-data')) scope.removeContentTypeParser('multipart/form-data');
  scope.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, (req, body, done) => {
    new Response(new Uint8Array(body as Buffer), { headers: { 'content-type': String(req.headers['content-type']) } }).formData()
      .then((form) => done(null, { __multipart: form } satisfies MultipartBody), (err: Error) => done(new BadRequestError(`Multipart form parse error - ${err.message}`), undefined));
  });
}

export function isMultipart(body: unknown): body is MultipartBody {
  return !!body && typeof body === 'object' && '__multipart' in body;
}

/** The reference's JobMultiPartInputSerializer keys: everything else is the job's data. */
const SCHEDULE_KEYS = ['_schedule_name', '_schedule_start_time', '_schedule_interval', '_schedule_crontab'];
const RUN_KEYS = new Set(['_task_queue', '_job_queue', ...SCHEDULE_KEYS]);

/** One form value as a job variable takes it: text, or an uploaded file as `{name, content}` (its bytes; the FileVar value, see uploads.ts). */
async function formValue(value: FormDataEntryValue): Promise<unknown> {
  return typeof value === 'string' ? value : { name: value.name, content: new Uint8Array(await value.arrayBuffer()) };
}

/**
 * A multipart run request as the JSON one (`{data, task_queue, schedule}`), as the reference reads
 * it: `_task_queue`/`_job_queue`, `_schedule_<key>` flattened, files and fields as the data.
 */
export async function multipartRunBody(form: FormData): Promise<Record<string, unknown>> {
  const text = (key: string) => (form.has(key) ? String(form.get(key)) : undefined);
  if (text('_task_queue') && text('_job_queue')) throw new ValidationError({ _task_queue: ['_task_queue and _job_queue are both specified. Please specify only one or another.'] });
  const data: Record<string, unknown> = {};
  for (const key of new Set(form.keys())) {
    if (RUN_KEYS.has(key)) continue;
    const values = await Promise.all(form.getAll(key).map(formValue));
    data[key] = values.length === 1 ? values[0] : values;
  }
  const body: Record<string, unknown> = { data };
  const queue = text('_task_queue') || text('_job_queue');
  if (queue) body.task_queue = queue;
  if (SCHEDULE_KEYS.some((key) => form.has(key))) {
    body.schedule = Object.fromEntries(SCHEDULE_KEYS.filter((key) => form.has(key)).map((key) => [key.slice('_schedule_'.length), text(key)]));
  }
  return body;
}
