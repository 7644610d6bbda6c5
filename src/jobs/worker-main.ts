import { parentPort, workerData } from 'node:worker_threads';
import { connect } from '../db/connect.js';
import { buildServices } from '../ops/build-services.js';
import { executeJob } from './execute.js';
import type { Config } from '../core/config.js';
import type { JobRun } from './execute.js';

/** What a job worker thread is started with (runner.ts). */
export type WorkerData = { entry: string; config: Config; source: { url: string; schema?: string } };

/**
 * A job worker thread: its own database connection and services, then one job at a time as
 * the runner sends them; it reports `ready` once and `done` after each job.
 */
async function main(): Promise<void> {
  const { config, source } = workerData as WorkerData;
  // The process's own connection checkpoints the WAL on its timer: no second checkpoint thread here.
  const dialect = connect(source.url, { schema: source.schema, poolSize: 2, sqlite: { cacheMb: config.sqliteCacheMb, checkpoints: false, walLimitMb: config.sqliteWalLimitMb } });
  await dialect.limitStatements(config.statementTimeoutMs);
  const services = buildServices(config, dialect);
  parentPort!.on('message', async (message: { type: 'run'; run: JobRun }) => {
    if (message.type !== 'run') return;
    await executeJob(services, message.run);
    parentPort!.postMessage({ type: 'done', jobResultId: message.run.jobResultId });
  });
  parentPort!.postMessage({ type: 'ready' });
}

await main();
