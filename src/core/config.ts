import { parseBlockedNetworks } from './webhook-url.js';
/** Typed configuration loaded once from the environment (ARCHITECTURE.md section 6). */
export type Config = {
  databaseUrl: string;
  host: string;
  port: number;
  paginateCount: number;
  /** 0 removes the maximum (then `limit=0` returns everything). */
  maxPageSize: number;
  strictFiltering: boolean;
  logLevel: string;
  workers: number;
  /** `*` or a list of `app.model` labels whose view permission is not required. */
  exemptViewPermissions: string[];
  /** Allow reads without any token (only with EXEMPT_VIEW_PERMISSIONS=*; the reference refuses them). */
  superuser?: { name: string; password?: string; token?: string };
  /** Megabytes of rendered GET responses kept until the next write (RESPONSE_CACHE_MB, 32; 0 turns the cache off). */
  responseCacheMb: number;
  /** Milliseconds without a request after which grown memory is collected and given back (IDLE_GC_MS; 0: off). */
  idleGcMs: number;
  /**
   * How far V8 lets the JavaScript heap grow past what the last full collection kept, in percent
   * (HEAP_GROWTH_PERCENT, 50: the next full collection comes at 1.5 times the live heap; 0: V8's own
   * factor, up to 4 times on a machine with a few GB). Process-wide: job threads too.
   */
  heapGrowthPercent: number;
  /** SQLite: megabytes of pages each connection keeps in memory (SQLITE_CACHE_MB; the service's connection and each job thread's). */
  sqliteCacheMb: number;
  /** SQLite: megabytes the write-ahead log may keep between checkpoints before one waits for writers and empties it (SQLITE_WAL_LIMIT_MB). */
  sqliteWalLimitMb: number;
  /** SQLite: ms without a write after which the checkpoint thread ends until the next write (SQLITE_CHECKPOINT_IDLE_MS; 0: it stays). */
  sqliteCheckpointIdleMs: number;
  /** Levels of objects a GraphQL query may nest (0: no maximum). */
  graphqlMaxDepth: number;
  /** Objects a GraphQL response may hold (0: no maximum). */
  graphqlMaxNodes: number;
  /** Request limits (issue 17): body megabytes, objects per JSON list, rows per CSV import. */
  limits: { bodyMb: number; bulkItems: number; csvRows: number; responseMb: number };
  /** PostgreSQL: milliseconds any one statement may run before it is cancelled (0: no limit). */
  statementTimeoutMs: number;
  /**
   * The queue (src/queue): `embedded` runs a runner (and the outbox publisher) in each service
   * process; `inventory worker` processes run more. Rows run at once per runner, milliseconds
   * between looks when nothing woke it, and a claimed row's lease.
   */
  queue: {
    embedded: boolean; concurrency: number; pollMs: number; leaseMs: number;
    /** `database` (the service's own tables, src/queue/store.ts) or `pg-boss` (PostgreSQL only, src/queue/pg-boss.ts). */
    engine: 'database' | 'pg-boss';
    /** Milliseconds a stopping runner lets running items finish before releasing them. */
    stopGraceMs: number;
    /** Milliseconds published outbox rows are kept (the change stream resumes from them) before they are pruned. */
    outboxRetentionMs: number;
  };
  /**
   * Webhook delivery (src/events/webhooks): the URL policy (core/webhook-url.ts) and, beyond the
   * reference (which tries once), attempts per delivery and the delay before the second one.
   */
  webhooks: {
    allowedHosts: string[]; additionalBlockedNetworks: string[]; allowedSchemes: string[]; maxAttempts: number; retryBackoffMs: number;
    /** Milliseconds to connect (TLS handshake included) and between bytes of the answer; the reference's 10 s and 30 s when absent. */
    connectTimeoutMs?: number; readTimeoutMs?: number;
  };
  /** Jobs (src/jobs): the folder of job modules, worker threads per process, default time limits in seconds. */
  jobs: { root: string; threads: number; /** Milliseconds an idle job thread lives before it ends (its memory goes back); 0: threads stay. */ threadIdleMs: number; softTimeLimit: number; timeLimit: number; /** Milliseconds between looks for due scheduled jobs; 0: no scheduler in this process. */ schedulerMs: number; /** Folder of Git repositories' working copies. */ gitRoot: string; /** The scheduler's clock (JOBS_SCHEDULER_CLOCK, for tests): it reads `clockMs` until the real time `realMs`, then runs `speed` times as fast; null: the real clock. */ schedulerClock: { realMs: number; clockMs: number; speed: number } | null };
  /** `/metrics/` (Prometheus): served at all, and only to token holders. */
  metrics: { enabled: boolean; authenticated: boolean };
  /** Log lines: `pretty` (one readable line per request), `json`, or `auto` (pretty on a terminal, else JSON). */
  logFormat: 'auto' | 'json' | 'pretty';
  /** Seconds a web interface session lasts from login (the reference's SESSION_COOKIE_AGE, two weeks; not extended by use, as there). */
  sessionCookieAge: number;
  /** Folder of uploaded files (image fields), served under `/media/` (MEDIA_ROOT). */
  mediaRoot: string;
};

const DEFAULT_DB = 'sqlite:./data/inventory.sqlite3';

/** QUEUE_ENGINE: `database` (default) or `pg-boss`, which needs PostgreSQL. */
function toQueueEngine(value: string | undefined, databaseUrl: string): 'database' | 'pg-boss' {
  if (value === undefined || value === '' || value === 'database') return 'database';
  if (value !== 'pg-boss') throw new Error(`QUEUE_ENGINE must be "database" or "pg-boss", got "${value}"`);
  if (!/^postgres(ql)?:/.test(databaseUrl)) throw new Error('QUEUE_ENGINE=pg-boss needs a PostgreSQL DATABASE_URL');
  return value;
}

function toInt(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return n;
}

/** A limit that cannot be switched off: 0 is refused at start rather than read as something else. */
function toPositive(value: string | undefined, fallback: number, name: string): number {
  const n = toInt(value, fallback, name);
  if (n === 0) throw new Error(`${name} must be a positive integer, got "${value}"`);
  return n;
}

/** The shortest queue lease accepted (`QUEUE_LEASE_MS`): a worker renews its leases every third of it. */
export const MIN_QUEUE_LEASE_MS = 3000;

/** Refuses a lease too short to renew in time (a live worker would take its own running rows again). */
export function checkLease(leaseMs: number, name = 'leaseMs'): void {
  if (!(leaseMs >= MIN_QUEUE_LEASE_MS)) throw new Error(`${name} must be at least ${MIN_QUEUE_LEASE_MS} ms (a worker renews its leases every third of it), got ${leaseMs}`);
}

function toLease(value: string | undefined, fallback: number, name: string): number {
  const n = toPositive(value, fallback, name);
  checkLease(n, name);
  return n;
}

function toBool(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  return !['0', 'false', 'no', 'off'].includes(value.toLowerCase());
}

/** A comma-separated list, blanks dropped. */
function toList(value: string | undefined): string[] {
  return (value ?? '').split(',').map((item) => item.trim()).filter(Boolean);
}

function toLogFormat(value: string | undefined): Config['logFormat'] {
  const format = (value || 'auto').toLowerCase();
  if (format !== 'auto' && format !== 'json' && format !== 'pretty') throw new Error(`LOG_FORMAT must be auto, json or pretty, got "${value}"`);
  return format;
}

/** `<real ms>,<clock ms>,<speed>` (JOBS_SCHEDULER_CLOCK) as the scheduler's clock, or null. */
function toClock(value: string | undefined): Config['jobs']['schedulerClock'] {
  if (!value) return null;
  const [realMs, clockMs, speed] = value.split(',').map(Number);
  if (![realMs, clockMs, speed].every(Number.isFinite) || speed <= 0) throw new Error(`JOBS_SCHEDULER_CLOCK: expected "<real ms>,<clock ms>,<speed>", got ${value}`);
  return { realMs, clockMs, speed };
}

/** Reads the configuration from `env` (defaults to `process.env`). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const name = env.SUPERUSER_NAME;
  const config: Config = {
    databaseUrl: env.DATABASE_URL || DEFAULT_DB,
    host: env.HOST || '0.0.0.0',
    port: toInt(env.PORT, 8080, 'PORT'),
    paginateCount: toInt(env.PAGINATE_COUNT, 50, 'PAGINATE_COUNT') || 50,
    maxPageSize: toInt(env.MAX_PAGE_SIZE, 1000, 'MAX_PAGE_SIZE'),
    strictFiltering: toBool(env.STRICT_FILTERING, true),
    logLevel: env.LOG_LEVEL || 'info',
    workers: toInt(env.WORKERS, 1, 'WORKERS') || 1,
    responseCacheMb: toInt(env.RESPONSE_CACHE_MB, 32, 'RESPONSE_CACHE_MB'),
    idleGcMs: toInt(env.IDLE_GC_MS, 2000, 'IDLE_GC_MS'),
    heapGrowthPercent: toInt(env.HEAP_GROWTH_PERCENT, 50, 'HEAP_GROWTH_PERCENT'),
    sqliteCacheMb: toPositive(env.SQLITE_CACHE_MB, 16, 'SQLITE_CACHE_MB'),
    sqliteWalLimitMb: toPositive(env.SQLITE_WAL_LIMIT_MB, 256, 'SQLITE_WAL_LIMIT_MB'),
    sqliteCheckpointIdleMs: toInt(env.SQLITE_CHECKPOINT_IDLE_MS, 30000, 'SQLITE_CHECKPOINT_IDLE_MS'),
    graphqlMaxDepth: toInt(env.GRAPHQL_MAX_DEPTH, 10, 'GRAPHQL_MAX_DEPTH'),
    graphqlMaxNodes: toInt(env.GRAPHQL_MAX_NODES, 100_000, 'GRAPHQL_MAX_NODES'),
    limits: {
      bodyMb: toPositive(env.MAX_BODY_MB, 16, 'MAX_BODY_MB'),
      bulkItems: toPositive(env.MAX_BULK_ITEMS, 10000, 'MAX_BULK_ITEMS'),
      csvRows: toPositive(env.MAX_CSV_ROWS, 10000, 'MAX_CSV_ROWS'),
      responseMb: toInt(env.MAX_RESPONSE_MB, 256, 'MAX_RESPONSE_MB'),
    },
    statementTimeoutMs: toInt(env.STATEMENT_TIMEOUT_MS, 30000, 'STATEMENT_TIMEOUT_MS'),
    queue: {
      embedded: toBool(env.QUEUE_EMBEDDED, true),
      concurrency: toPositive(env.QUEUE_CONCURRENCY, 4, 'QUEUE_CONCURRENCY'),
      pollMs: toPositive(env.QUEUE_POLL_MS, 2000, 'QUEUE_POLL_MS'),
      leaseMs: toLease(env.QUEUE_LEASE_MS, 60000, 'QUEUE_LEASE_MS'),
      engine: toQueueEngine(env.QUEUE_ENGINE, env.DATABASE_URL || DEFAULT_DB),
      stopGraceMs: toInt(env.QUEUE_STOP_GRACE_MS, 10000, 'QUEUE_STOP_GRACE_MS'),
      outboxRetentionMs: toPositive(env.OUTBOX_RETENTION_MS, 7 * 24 * 3600_000, 'OUTBOX_RETENTION_MS'),
    },
    webhooks: {
      allowedHosts: toList(env.WEBHOOK_ALLOWED_HOSTS),
      additionalBlockedNetworks: toList(env.WEBHOOK_ADDITIONAL_BLOCKED_NETWORKS),
      allowedSchemes: env.WEBHOOK_ALLOWED_SCHEMES ? toList(env.WEBHOOK_ALLOWED_SCHEMES) : ['http', 'https'],
      maxAttempts: toPositive(env.WEBHOOK_MAX_ATTEMPTS, 5, 'WEBHOOK_MAX_ATTEMPTS'),
      retryBackoffMs: toInt(env.WEBHOOK_RETRY_BACKOFF_MS, 10000, 'WEBHOOK_RETRY_BACKOFF_MS'),
      connectTimeoutMs: toPositive(env.WEBHOOK_CONNECT_TIMEOUT_MS, 10000, 'WEBHOOK_CONNECT_TIMEOUT_MS'),
      readTimeoutMs: toPositive(env.WEBHOOK_READ_TIMEOUT_MS, 30000, 'WEBHOOK_READ_TIMEOUT_MS'),
    },
    jobs: {
      root: env.JOBS_ROOT || './jobs',
      threads: toPositive(env.JOBS_THREADS, 2, 'JOBS_THREADS'),
      threadIdleMs: toInt(env.JOBS_THREAD_IDLE_MS, 30000, 'JOBS_THREAD_IDLE_MS'),
      softTimeLimit: toPositive(env.JOBS_SOFT_TIME_LIMIT, 300, 'JOBS_SOFT_TIME_LIMIT'),
      timeLimit: toPositive(env.JOBS_TIME_LIMIT, 600, 'JOBS_TIME_LIMIT'),
      schedulerMs: toInt(env.JOBS_SCHEDULER_MS, 2000, 'JOBS_SCHEDULER_MS'),
      gitRoot: env.GIT_ROOT || './data/git',
      schedulerClock: toClock(env.JOBS_SCHEDULER_CLOCK),
    },
    metrics: { enabled: toBool(env.METRICS_ENABLED, true), authenticated: toBool(env.METRICS_AUTHENTICATED, false) },
    logFormat: toLogFormat(env.LOG_FORMAT),
    sessionCookieAge: toPositive(env.SESSION_COOKIE_AGE, 1_209_600, 'SESSION_COOKIE_AGE'),
    mediaRoot: env.MEDIA_ROOT || './media',
    exemptViewPermissions: (env.EXEMPT_VIEW_PERMISSIONS || '').split(',').map((s) => s.trim()).filter(Boolean),
    superuser: name
      ? { name, password: env.SUPERUSER_PASSWORD || undefined, token: env.SUPERUSER_API_TOKEN || undefined }
      : undefined,
  };
  parseBlockedNetworks(config.webhooks.additionalBlockedNetworks);
  return { ...config, ...overrides };
}
