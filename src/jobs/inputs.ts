import type { Exec } from '../db/store.js';

/**
 * The inputs of queued runs (`inventory_job_inputs`): written with the queue row, read by the
 * runner that takes it, deleted when the run starts or ends. Queue rows carry no inputs.
 */
const TABLE = 'inventory_job_inputs';

export async function keepInputs(exec: Exec, jobResultId: string, data: Record<string, unknown>): Promise<void> {
  await exec.insertInto(TABLE).values({ job_result_id: jobResultId, data: JSON.stringify(data ?? {}), created: Date.now() }).execute();
}

/** A run's inputs, or undefined once they are gone (the run started or ended). */
export async function readInputs(exec: Exec, jobResultId: string): Promise<Record<string, unknown> | undefined> {
  const row = await exec.selectFrom(TABLE).select('data').where('job_result_id', '=', jobResultId).executeTakeFirst();
  return row ? JSON.parse(String(row.data)) as Record<string, unknown> : undefined;
}

export async function dropInputs(exec: Exec, jobResultId: string): Promise<void> {
  await exec.deleteFrom(TABLE).where('job_result_id', '=', jobResultId).execute();
}
