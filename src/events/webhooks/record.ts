import { createHash, randomUUID } from 'node:crypto';
import { toIsoMicro } from '../../core/fields/scalar.js';
import type { Services } from '../../ops/services.js';

/** The task name the reference's job results carry for a webhook delivery. */
export const WEBHOOK_TASK = 'nautobot.extras.tasks.process_webhook';

export type Level = 'info' | 'warning' | 'error' | 'success' | 'failure';

/**
 * The attempts of one delivery, as an administrator sees them through the API: one job result
 * (`/api/extras/job-results/`, task `process_webhook`) per delivery, its status following the
 * attempts (STARTED, RETRY, SUCCESS, FAILURE), and a job log entry (`/api/extras/job-logs/`)
 * per step; each line goes to the process log too.
 */
export class DeliveryRecord {
  /** Stable per queue row, so every attempt (any worker, after a restart) updates the same result. */
  readonly id: string;

  constructor(private readonly services: Services, queueId: number, private readonly subject: string, private readonly kwargs: Record<string, unknown>) {
    const hex = createHash('sha1').update(`webhook-delivery:${queueId}:${JSON.stringify(kwargs)}`).digest('hex');
    this.id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }

  /** Marks the result STARTED (creating it on the first attempt). */
  async started(worker: string): Promise<void> {
    const { store, dialect, registry } = this.services;
    const model = registry.get('extras.jobresult');
    const now = toIsoMicro(new Date());
    const existing = await store.byId(dialect.db, model, this.id);
    if (existing) {
      await store.update(dialect.db, model, this.id, { status: 'STARTED', date_started: now, worker });
      return;
    }
    await store.insert(dialect.db, model, [{
      id: this.id, name: WEBHOOK_TASK, task_name: WEBHOOK_TASK, date_created: now, date_started: now, status: 'STARTED',
      worker, task_args: [], task_kwargs: this.kwargs, celery_kwargs: {}, result: null, traceback: null, meta: null,
    }]);
  }

  /** The result's status, if it exists. */
  async status(): Promise<string | undefined> {
    const row = await this.services.dialect.db.selectFrom('extras_jobresult').select('status').where('id', '=', this.id).executeTakeFirst();
    return row?.status as string | undefined;
  }

  /** One line of the delivery's log (API and process log). */
  async log(level: Level, message: string): Promise<void> {
    const { store, dialect, registry } = this.services;
    const line = `webhook ${this.subject}: ${message}`;
    if (level === 'error' || level === 'failure') console.error(line);
    else if (level === 'warning') console.warn(line);
    else console.log(line);
    await store.insert(dialect.db, registry.get('extras.joblogentry'), [{
      id: randomUUID(), job_result_id: this.id, log_level: level, grouping: 'main', message, created: toIsoMicro(new Date()), log_object: this.subject.slice(0, 200), absolute_url: '',
    }]);
  }

  /** The attempt's outcome: SUCCESS or FAILURE end the result; RETRY leaves it waiting for the next attempt. */
  async finished(status: 'SUCCESS' | 'FAILURE' | 'RETRY', result: string, traceback: string | null = null): Promise<void> {
    const { store, dialect, registry } = this.services;
    await store.update(dialect.db, registry.get('extras.jobresult'), this.id, {
      status, result, traceback, ...(status === 'RETRY' ? {} : { date_done: toIsoMicro(new Date()) }),
    });
  }
}
