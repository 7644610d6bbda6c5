import PgBoss from 'pg-boss';
import { CompiledQuery, sql } from 'kysely';
import { QUEUE_CHANNEL } from './store.js';
import { declaredQueueKinds } from './kinds.js';
import { noteQueued } from './queued-flag.js';
import type { QueueBackend } from './backend.js';
import type { ClaimedItem, NewItem } from './store.js';
import type { Exec } from '../db/store.js';
import type { Services } from '../ops/services.js';

/**
 * The pg-boss engine (`QUEUE_ENGINE=pg-boss`, PostgreSQL only): queue rows are pg-boss jobs in
 * the `pgboss` schema of the service's database, one pg-boss queue per kind. pg-boss stores,
 * claims (SKIP LOCKED), retries with backoff, expires the jobs of dead workers and archives
 * finished ones; this module adds what the queue contract asks beyond it:
 * - enqueue in the caller's transaction (pg-boss's `db` option over the write's `exec`);
 * - ids from the `inventory_queue` sequence, written into the job's uuid, so ids grow in
 *   enqueue order (also inside one transaction) and stay numbers for callers;
 * - per-group order: a claimed job with an earlier unfinished job of its group is handed back
 *   unstarted (pg-boss's singleton policies do not keep order across retries);
 * - lease extension for long runs (the runner's heartbeat moves `expire_in`);
 * - one retry beyond a row's attempts, so a runner gives up a dead worker's job (and tells its kind).
 */
const PGBOSS_SCHEMA = 'pgboss';

/** pg-boss's schema: `pgboss`, or `<schema>_pgboss` beside a database opened in a schema of its own (test runs). */
export function pgBossSchema(services: Services): string {
  const own = services.dialect.source?.schema;
  return own ? `${own}_pgboss` : PGBOSS_SCHEMA;
}

/** `queues`: each kind's creation; `created`: the kinds whose queue exists; `started`: pg-boss started and the declared kinds' queues created. */
type Engine = { boss: PgBoss; ready: Promise<void>; queues: Map<string, Promise<void>>; created: Set<string>; started: boolean };

const engines = new WeakMap<Services, Engine>();

/** Whether `services` queue through pg-boss. */
export function usesPgBoss(services: Services): boolean {
  return services.config.queue.engine === 'pg-boss';
}

/** The started pg-boss of `services` (one per process and database; its own small pool). */
async function engineOf(services: Services): Promise<Engine> {
  let engine = engines.get(services);
  if (!engine) {
    const { queue, databaseUrl } = services.config;
    const boss = new PgBoss({
      connectionString: databaseUrl, schema: pgBossSchema(services), max: 3, application_name: 'inventory-queue', schedule: false,
      // Expired jobs (a dead worker's) are found by maintenance: look a few times per lease.
      maintenanceIntervalSeconds: Math.max(1, Math.round(queue.leaseMs / 4000)),
    });
    boss.on('error', (err: Error) => console.error(`queue (pg-boss): ${err.message}`));
    const started: Engine = { boss, ready: Promise.resolve(), queues: new Map(), created: new Set(), started: false };
    // Every declared kind's queue is made here, before any transaction enqueues one.
    started.ready = boss.start().then(() => indexGroups(services)).then(async () => {
      for (const kind of declaredQueueKinds()) await ensureQueue(started, kind);
      started.started = true;
    });
    engine = started;
    engines.set(services, engine);
  }
  await engine.ready;
  return engine;
}

/**
 * An index for the group-order check (blockedInGroup): unfinished jobs by kind, group and id. On
 * pg-boss's partitioned job table, so every queue's partition has it; a concurrent creation by
 * another process is no error.
 */
async function indexGroups(services: Services): Promise<void> {
  const schema = pgBossSchema(services);
  await sql`CREATE INDEX IF NOT EXISTS "inventory_group_order" ON ${sql.table(`${schema}.job`)} ("name", "singleton_key", "id")
    WHERE "singleton_key" IS NOT NULL AND "state" < 'completed'`.execute(services.dialect.db).catch((err: { code?: string }) => {
    if (err.code !== '23505' && err.code !== '42P07') throw err;
  });
}

/**
 * Creates the pg-boss queue of `kind` once per process, one creation at a time (concurrent
 * creations deadlock in PostgreSQL; across processes a deadlock is retried).
 */
async function ensureQueue(engine: Engine, kind: string): Promise<void> {
  let created = engine.queues.get(kind);
  if (!created) {
    const previous = [...engine.queues.values()].at(-1) ?? Promise.resolve();
    created = previous.catch(() => undefined).then(() => createQueue(engine.boss, kind)).then(() => void engine.created.add(kind));
    engine.queues.set(kind, created);
    created.catch(() => engine.queues.delete(kind));
  }
  await created;
}

async function createQueue(boss: PgBoss, kind: string): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      if (await boss.getQueue(kind)) return;
      await boss.createQueue(kind, { name: kind, policy: 'standard' });
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== '40P01' || attempt >= 5) throw err;
    }
  }
}

/**
 * Starts the pg-boss of `services` and creates the queues of the declared kinds (the service
 * does it at start, so enqueues inside write transactions open no other connection).
 */
export async function startPgBoss(services: Services): Promise<void> {
  await engineOf(services);
}

/**
 * The started engine an enqueue in `exec` inserts through. Outside a transaction (the root
 * handle) it is started and the kinds' queues made as needed; inside one nothing may reach for
 * another connection, so an engine not started or a kind without its queue is a clear error.
 */
async function engineFor(services: Services, exec: Exec, kinds: Set<string>): Promise<Engine> {
  if (exec === services.dialect.db) {
    const engine = await engineOf(services);
    for (const kind of kinds) await ensureQueue(engine, kind);
    return engine;
  }
  const engine = engines.get(services);
  if (!engine?.started) throw new Error('queue (pg-boss): the engine is not started; start it (startQueueEngine) before enqueueing in a transaction');
  const missing = [...kinds].filter((kind) => !engine.created.has(kind));
  if (missing.length > 0) throw new Error(`queue (pg-boss): no queue for kind ${missing.join(', ')}; declare it (declareQueueKind) so the engine creates it at start`);
  return engine;
}

/** Stops the pg-boss of `services`, if it was started (after the runners stopped). */
export async function closePgBoss(services: Services): Promise<void> {
  const engine = engines.get(services);
  if (!engine) return;
  engines.delete(services);
  await engine.ready.catch(() => undefined);
  await engine.boss.stop({ graceful: false, close: true, wait: true }).catch(() => undefined);
}

/** pg-boss's executor over a Kysely handle (a transaction: the jobs commit with it). */
function executorOf(exec: Exec): PgBoss.Db {
  return { executeSql: async (text: string, values?: unknown[]) => ({ rows: (await exec.executeQuery(CompiledQuery.raw(text, values ?? []))).rows }) } as PgBoss.Db;
}

/** The uuid of queue id `id` (ids compare as their uuids do). */
export function jobIdOf(id: number): string {
  return `00000000-0000-4000-8000-${id.toString(16).padStart(12, '0')}`;
}

function idOfJob(jobId: string): number {
  return parseInt(jobId.slice(24), 16);
}

/** Inserts jobs in `exec` (only through it, inside a transaction); returns their ids in order. */
export async function insertJobs(services: Services, exec: Exec, items: NewItem[]): Promise<number[]> {
  if (items.length === 0) return [];
  const engine = await engineFor(services, exec, new Set(items.map((item) => item.kind)));
  const next = await sql<{ id: string }>`SELECT nextval(pg_get_serial_sequence('inventory_queue', 'id')) AS "id" FROM generate_series(1, ${items.length})`.execute(exec);
  const ids = next.rows.map((r) => Number(r.id)).sort((a, b) => a - b);
  const expireInSeconds = Math.max(1, Math.ceil(services.config.queue.leaseMs / 1000));
  const jobs = items.map((item, i): PgBoss.JobInsert => ({
    id: jobIdOf(ids[i]), name: item.kind, data: { payload: item.payload ?? null, maxAttempts: item.maxAttempts }, singletonKey: item.groupKey ?? undefined,
    // One retry beyond the attempts: a job whose worker died in its last attempt is expired into
    // a retry, claimed by a runner and given up there (its kind's give-up hook told), not failed
    // silently by pg-boss's maintenance.
    retryLimit: item.maxAttempts, retryDelay: Math.ceil(item.backoffMs / 1000), retryBackoff: item.backoffMs > 0,
    startAfter: new Date(item.runAfter).toISOString() as unknown as Date, expireInSeconds,
  }));
  for (let start = 0; start < jobs.length; start += 500) await engine.boss.insert(jobs.slice(start, start + 500), { db: executorOf(exec) });
  noteQueued(services.dialect);
  await services.dialect.notify(exec, QUEUE_CHANNEL);
  return ids;
}

/** A job handed back unstarted: its state and attempt count as before the fetch, due after `delayMs`. */
async function unstart(services: Services, jobIds: string[], delayMs: number): Promise<void> {
  if (jobIds.length === 0) return;
  await sql`UPDATE ${sql.table(`${pgBossSchema(services)}.job`)} SET
      "state" = (CASE WHEN "retry_count" = 0 THEN 'created' ELSE 'retry' END)::${sql.raw(pgBossSchema(services))}.job_state,
      "started_on" = CASE WHEN "retry_count" = 0 THEN NULL ELSE "started_on" END,
      "retry_count" = GREATEST("retry_count" - 1, 0),
      "start_after" = now() + ${delayMs} * interval '1 millisecond'
    WHERE "id" = ANY(${jobIds}::uuid[]) AND "state" = 'active'`.execute(services.dialect.db);
}

/** Of `jobIds`, those with an earlier unfinished job of their group (same kind and key). */
async function blockedInGroup(services: Services, jobIds: string[]): Promise<Set<string>> {
  const job = sql.table(`${pgBossSchema(services)}.job`);
  const result = await sql<{ id: string }>`SELECT j."id" FROM ${job} j WHERE j."id" = ANY(${jobIds}::uuid[]) AND j."singleton_key" IS NOT NULL
    AND EXISTS (SELECT 1 FROM ${job} e WHERE e."name" = j."name" AND e."singleton_key" = j."singleton_key" AND e."id" < j."id" AND e."state" < 'completed')`.execute(services.dialect.db);
  return new Set(result.rows.map((r) => String(r.id)));
}

/** A job's data: the payload, and the attempts it has (jobs queued before it was stored: `retry_limit + 1`). */
type JobData = { payload: unknown; maxAttempts?: number };

/** The pg-boss backend of the runner. */
export function pgBossBackend(services: Services): QueueBackend {
  const deferMs = Math.min(1000, services.config.queue.pollMs);
  let turn = 0;
  return {
    async prepare(kinds) {
      const engine = await engineOf(services);
      for (const kind of kinds) await ensureQueue(engine, kind);
    },
    async claim(_worker, kinds, limit) {
      const engine = await engineOf(services);
      const jobs: PgBoss.JobWithMetadata<JobData>[] = [];
      // One pg-boss queue per kind: each claim starts at the next kind, so no kind's backlog starves another.
      turn = (turn + 1) % Math.max(1, kinds.length);
      for (const kind of [...kinds.slice(turn), ...kinds.slice(0, turn)]) {
        if (jobs.length >= limit) break;
        await ensureQueue(engine, kind);
        jobs.push(...await engine.boss.fetch<JobData>(kind, { batchSize: limit - jobs.length, includeMetadata: true }));
      }
      if (jobs.length === 0) return [];
      const blocked = await blockedInGroup(services, jobs.map((j) => j.id));
      await unstart(services, [...blocked], deferMs);
      return jobs.filter((j) => !blocked.has(j.id)).map((j): ClaimedItem => ({
        id: idOfJob(j.id), kind: j.name, payload: j.data?.payload ?? null, attempts: j.retryCount + 1,
        maxAttempts: j.data?.maxAttempts ?? j.retryLimit + 1, backoffMs: j.retryDelay * 1000,
      })).sort((a, b) => a.id - b.id);
    },
    async finish(_worker, item, state, outcome) {
      const { boss } = await engineOf(services);
      if (state === 'done') {
        await boss.complete(item.kind, jobIdOf(item.id), outcome.result === undefined ? undefined : (outcome.result as object));
        return;
      }
      // Failed for good (attempts spent or a PermanentError): no retry is left.
      await sql`UPDATE ${sql.table(`${pgBossSchema(services)}.job`)} SET "retry_limit" = "retry_count" WHERE "name" = ${item.kind} AND "id" = ${jobIdOf(item.id)}::uuid`.execute(services.dialect.db);
      await boss.fail(item.kind, jobIdOf(item.id), { message: outcome.error ?? null });
    },
    async retry(_worker, item, _runAfter, error) {
      const { boss } = await engineOf(services);
      await boss.fail(item.kind, jobIdOf(item.id), { message: error });
    },
    async release(_worker, item) {
      await unstart(services, [jobIdOf(item.id)], 0);
    },
    async extend(_worker, items, leaseUntil) {
      if (items.length === 0) return;
      const seconds = Math.max(1, Math.ceil((leaseUntil - Date.now()) / 1000));
      await sql`UPDATE ${sql.table(`${pgBossSchema(services)}.job`)} SET "expire_in" = (now() - "started_on") + ${seconds} * interval '1 second'
        WHERE "id" = ANY(${items.map((i) => jobIdOf(i.id))}::uuid[]) AND "state" = 'active'`.execute(services.dialect.db);
    },
    async prune() {
      // pg-boss archives finished jobs and drops old archives in its maintenance.
    },
  };
}

/** Jobs waiting (`queued`: created or retry) and running (`active`). */
export async function pgBossDepth(services: Services): Promise<{ queued: number; running: number }> {
  await engineOf(services);
  const result = await sql<{ state: string; n: string }>`SELECT "state"::text AS "state", count(*) AS "n" FROM ${sql.table(`${pgBossSchema(services)}.job`)}
    WHERE "state" < 'completed' GROUP BY "state"`.execute(services.dialect.db);
  const depth = { queued: 0, running: 0 };
  for (const row of result.rows) depth[row.state === 'active' ? 'running' : 'queued'] += Number(row.n);
  return depth;
}

/** One job as `queueItem` shows it (live or archived). */
export async function pgBossItem(services: Services, id: number): Promise<{ state: string; attempts: number; last_error: string | null; result: unknown } | undefined> {
  await engineOf(services);
  const columns = sql`"state"::text AS "state", "retry_count", "started_on", "output"`;
  const result = await sql<{ state: string; retry_count: number; started_on: Date | null; output: any }>`
    SELECT ${columns} FROM ${sql.table(`${pgBossSchema(services)}.job`)} WHERE "id" = ${jobIdOf(id)}::uuid
    UNION ALL SELECT ${columns} FROM ${sql.table(`${pgBossSchema(services)}.archive`)} WHERE "id" = ${jobIdOf(id)}::uuid`.execute(services.dialect.db);
  const row = result.rows[0];
  if (!row) return undefined;
  const state = ({ created: 'queued', retry: 'queued', active: 'running', completed: 'done' } as Record<string, string>)[row.state] ?? 'failed';
  const attempts = Number(row.retry_count) + (row.started_on ? 1 : 0);
  const failed = state === 'failed' || state === 'queued';
  return { state, attempts, last_error: failed ? (row.output?.message ?? null) : null, result: state === 'done' ? row.output ?? null : null };
}
