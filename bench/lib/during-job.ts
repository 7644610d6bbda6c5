import { drive } from './load.js';
import type { ApiClient } from './client.js';
import type { LoadSettings } from './load.js';
import type { ReadRow } from './report.js';
import type { ReadScenario } from './scenarios.js';

/** The job the scenario runs (bench/jobs/cpu.ts; the bench service's JOBS_ROOT is bench/jobs). */
const JOB_NAME = 'Bench: CPU-bound spin';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls the job result until `done` says yes (the job runs in the service; nothing else tells). */
async function resultUntil(client: ApiClient, id: string, done: (status: string) => boolean): Promise<string> {
  for (;;) {
    const status = String((await client.ok<any>('GET', `/api/extras/job-results/${id}/`)).body.status.value);
    if (done(status)) return status;
    await pause(200);
  }
}

/**
 * Issue 21's "the API stays responsive while a CPU-bound job runs": the detail GET scenario
 * driven while a job keeps a CPU busy in the service's job threads (started first, running
 * throughout, awaited after). Returns the row, or a note when it could not run.
 */
export async function measureDetailDuringJob(c: { base: string; client: ApiClient; detail: ReadScenario | undefined; headers: Record<string, string>; settings: LoadSettings }): Promise<ReadRow | string> {
  if (!c.detail) return 'detail GET during a CPU-bound job skipped: no detail GET scenario';
  const job = (await c.client.ok<any>('GET', `/api/extras/jobs/?name=${encodeURIComponent(JOB_NAME)}`)).body.results[0];
  if (!job) return `detail GET during a CPU-bound job skipped: no job "${JOB_NAME}" (JOBS_ROOT)`;
  if (!job.enabled) await c.client.ok('PATCH', `/api/extras/jobs/${job.id}/`, { enabled: true });
  const seconds = Math.ceil(c.settings.warmup + c.settings.duration) + 3;
  const run = await c.client.request<any>('POST', `/api/extras/jobs/${job.id}/run/`, { data: { seconds } });
  if (run.status !== 201) return `detail GET during a CPU-bound job skipped: run/ answered ${run.status} ${run.raw.slice(0, 200)}`;
  const resultId = String(run.body.job_result.id);
  if ((await resultUntil(c.client, resultId, (s) => s !== 'PENDING')) !== 'STARTED') return 'detail GET during a CPU-bound job skipped: the job did not start';
  const headers = { ...c.headers, ...c.detail.headers };
  const bytes = (await (await fetch(c.base + c.detail.paths[0], { headers })).arrayBuffer()).byteLength;
  const fig = await drive({ base: c.base, paths: c.detail.paths, headers, settings: c.settings });
  const after = await resultUntil(c.client, resultId, (s) => s !== 'STARTED');
  const row: ReadRow = { ...fig, name: `${c.detail.name}, while a CPU-bound job runs`, path: c.detail.paths[0], list: false, floorRatio: null, floorRps: null, statements: null, cpuMs: null, bytes, peakRssMb: 0 };
  return after === 'SUCCESS' ? row : `${row.name}: the job ended ${after}`;
}
