import type { Dialect } from '../dialects/dialect.js';

/**
 * `inventory_job_inputs`: the cleaned input of a queued job run, kept apart from its queue row
 * (which stays after the run until the queue's retention purges it) and deleted when the run
 * starts or ends, so a job's inputs, sensitive ones included, live no longer than the reference's
 * broker message does. `data` is JSON text; `created` milliseconds since the epoch.
 */
export async function createJobInputsTable(dialect: Dialect): Promise<void> {
  await dialect.execScript([
    `CREATE TABLE IF NOT EXISTS "inventory_job_inputs" ("job_result_id" text PRIMARY KEY, "data" text NOT NULL, "created" ${dialect.columnType('bigint')} NOT NULL)`,
  ]);
}
