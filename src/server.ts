import './server-env.js';
import cluster from 'node:cluster';
import { buildApp } from './api/app.js';
import { backgroundOf } from './background.js';
import { loadConfig } from './core/config.js';
import { limitHeapGrowth } from './core/gc.js';
import { serveClusterMetrics } from './api/metrics/cluster.js';

/** Reads the configuration, migrates, and serves; WORKERS>1 forks processes sharing the port. */
async function main(): Promise<void> {
  const config = loadConfig();
  limitHeapGrowth(config.heapGrowthPercent);
  // An in-memory database belongs to one process; a file (WAL) or PostgreSQL can be shared.
  const shareable = config.databaseUrl !== 'sqlite::memory:';
  const multi = config.workers > 1 && shareable;
  if (config.workers > 1 && !shareable) console.warn('WORKERS>1 needs a database file or PostgreSQL; starting one process on the in-memory database.');
  if (multi && cluster.isPrimary) {
    const app = await buildApp({ config });
    await app.close();
    if (config.metrics.enabled) serveClusterMetrics();
    for (let i = 0; i < config.workers; i += 1) cluster.fork();
    cluster.on('exit', (worker, code) => console.error(`worker ${worker.process.pid} exited (${code})`));
    return;
  }
  const app = await buildApp({ config, logger: true, migrate: cluster.isPrimary });
  // Stopping gracefully from the first request on: a signal before the first listener would end the process at once.
  closeOnSignal(async () => {
    await backgroundOf(app.services)?.stop(config.queue.stopGraceMs);
    await app.close();
  }, config.queue.stopGraceMs);
  await app.listen({ host: config.host, port: config.port });
}

/**
 * SIGTERM/SIGINT: the embedded queue runner claims nothing more and lets running items finish for
 * up to QUEUE_STOP_GRACE_MS, then the server closes and the process exits; a close held up by
 * long-lived responses (change streams) is cut short 5 s after the grace period.
 */
function closeOnSignal(close: () => Promise<void>, graceMs: number): void {
  const stop = (signal: string) => {
    console.log(`${signal}: stopping (running queue items get up to ${graceMs} ms to finish)`);
    setTimeout(() => process.exit(0), graceMs + 5000).unref();
    close().then(() => process.exit(0), (err) => {
      console.error(err);
      process.exit(1);
    });
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
