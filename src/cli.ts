import { loadConfig } from './core/config.js';
import { generateKey } from './core/passwords.js';
import { connect } from './db/connect.js';
import { loadDefaults } from './db/load-defaults.js';
import { migrate } from './db/schema/migrate.js';
import { ensureToken, ensureUser } from './ops/bootstrap.js';
import { buildServices } from './ops/build-services.js';
import { startBackground } from './background.js';
import { closeQueueEngine, startQueueEngine } from './queue/index.js';
import { startScheduler } from './jobs/scheduler.js';
import type { Services } from './ops/services.js';

const USAGE = `usage: inventory <command>
  migrate                               apply migrations and load default objects
  createsuperuser NAME [PASSWORD]       create a superuser (no password: token-only)
  create-token USERNAME [KEY]           create an API token and print its key
  worker                                run a queue worker (deliveries, jobs) until SIGINT/SIGTERM`;

async function withServices<T>(fn: (services: Services) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const dialect = connect(config.databaseUrl, { sqlite: { cacheMb: config.sqliteCacheMb, walLimitMb: config.sqliteWalLimitMb, checkpointIdleMs: config.sqliteCheckpointIdleMs } });
  const services = buildServices(config, dialect);
  const { registry } = services;
  try {
    await migrate(dialect, registry);
    await loadDefaults(dialect, services.store, registry);
    return await fn(services);
  } finally {
    await closeQueueEngine(services);
    await dialect.close();
  }
}

/** A queue runner and outbox publisher in this process, until a signal stops it (running rows are released). */
async function runWorker(services: Services): Promise<void> {
  // The queue engine before the publisher and scheduler enqueue in their transactions.
  await startQueueEngine(services);
  const background = await startBackground(services);
  // Workers also fire due schedules (the reference's beat): each occurrence is claimed once, whatever the number of processes.
  const stopScheduler = services.config.jobs.schedulerMs > 0 ? startScheduler(services, (err) => console.error(err)) : () => undefined;
  // Listening before saying it runs: whoever waits for that line may signal at once, and a signal
  // that comes before its first listener ends the process without a graceful stop.
  const signalled = new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  console.log(`worker ${background.runner.id} running`);
  await signalled;
  console.log(`worker stopping: claiming nothing more; running items get up to ${services.config.queue.stopGraceMs} ms to finish`);
  stopScheduler();
  await background.stop(services.config.queue.stopGraceMs);
  console.log('worker stopped');
}

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  if (command === 'migrate') {
    await withServices(async () => console.log('database is up to date'));
    return 0;
  }
  if (command === 'createsuperuser' && args[0]) {
    await withServices((s) => ensureUser(s, { username: args[0], password: args[1], superuser: true }));
    console.log(`superuser ${args[0]} ready`);
    return 0;
  }
  if (command === 'create-token' && args[0]) {
    const key = args[1] ?? generateKey();
    await withServices(async (s) => {
      const [user] = await s.store.where(s.dialect.db, s.registry.get('users.user'), { username: args[0] });
      if (!user) throw new Error(`no user named ${args[0]}`);
      await ensureToken(s, { userId: user.id, key });
    });
    console.log(key);
    return 0;
  }
  if (command === 'worker') {
    await withServices(runWorker);
    return 0;
  }
  console.error(USAGE);
  return 2;
}

main(process.argv.slice(2)).then((code) => process.exit(code), (err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
