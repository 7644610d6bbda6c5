import pg from 'pg';
import { PostgresDialect, sql } from 'kysely';
import { encodeJson } from '../../core/json-text.js';
import { makeCounter } from './dialect.js';
import { GuardedKysely, assertOutsideTransaction, insideTransaction } from './transaction-guard.js';
import { inJsonbOrder } from './jsonb-order.js';
import { postgresJson } from './postgres-json.js';
import { withNamedStatements } from './postgres-statements.js';
import { GENERATION_SQL, trackWrites } from './postgres-generation.js';
import { countedTables, keepRowCounts, rowCountSql } from './postgres-row-counts.js';
import { keepStatistics } from './postgres-statistics.js';
import { SharedReads, sharingReads } from './postgres-shared-reads.js';
import { directReads } from './postgres-read-rows.js';
import type { Dialect, DriverErrorKind } from './dialect.js';
import type { Storage } from '../../core/fields/kind.js';

const TYPES: Record<Storage, string> = {
  text: 'text', integer: 'integer', bigint: 'bigint', real: 'double precision', boolean: 'boolean',
  json: 'jsonb', document: 'json', uuid: 'uuid', binary: 'bytea', none: 'text',
};

/**
 * Driver values that read back as another JS value: a json column gives keys in written order,
 * read as jsonb gave (and the reference gives) them. The others come back as stored.
 */
const DECODERS: Partial<Record<Storage, (value: unknown) => unknown>> = { document: inJsonbOrder };

// COUNT(*) and bigint come back as strings by default; they fit in a double here.
pg.types.setTypeParser(20, (v) => Number(v));

/**
 * `limitStatements`: from now on every connection of the pool (the idle ones at once, new ones
 * when they open) cancels a statement that runs longer than `ms`. Applied after migrations,
 * whose table rewrites may rightly take longer.
 */
function statementLimiter(pool: pg.Pool): (ms: number) => Promise<void> {
  let limit = 0;
  pool.on('connect', (client) => {
    if (limit > 0) client.query(`SET statement_timeout = ${limit}`).catch(() => undefined);
  });
  return async (ms) => {
    limit = Math.max(0, Math.floor(ms));
    const idle = await Promise.all(Array.from({ length: pool.idleCount }, () => pool.connect()));
    try {
      await Promise.all(idle.map((client) => client.query(`SET statement_timeout = ${limit}`)));
    } finally {
      for (const client of idle) client.release();
    }
  };
}

/** 57014 query_canceled: what statement_timeout raises (nothing else here cancels statements); 2201B: a refused pattern; 23505, 40P01, 40001, 55P03: see DriverErrorKind. */
function postgresErrorKind(err: unknown): DriverErrorKind | null {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  if (code === '57014') return { kind: 'statement_timeout' };
  if (code === '23505') return { kind: 'unique_violation' };
  if (code === '40P01' || code === '40001' || code === '55P03') return { kind: 'write_conflict' };
  if (code === '2201B') return { kind: 'invalid_regex', message: `Invalid regular expression: ${String(message).replace(/^invalid regular expression: /, '')}` };
  return null;
}

/** Every this many ms a process looks for tables whose planner statistics are stale (postgres-statistics.ts). */
const STATISTICS_EVERY_MS = 10_000;

/** PostgreSQL through a `pg` pool; `schema` isolates test runs. */
export function createPostgresDialect(url: string, opts: { schema?: string; poolSize?: number; statisticsEveryMs?: number } = {}): Dialect {
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.poolSize ?? 10,
    // JIT compilation pays off for long analytic queries, never for ours: a recursive query's
    // row estimate alone can cross jit_above_cost and spend 200 ms compiling a 10 ms statement.
    options: ['-c jit=off', ...(opts.schema ? [`-c search_path=${opts.schema}`] : [])].join(' '),
    // Statements are sent without waiting for the answer of the one before: the statements of a
    // turn outside transactions share a connection and a round trip (postgres-shared-reads.ts).
    pipeline: true,
  } as pg.PoolConfig);
  // An idle connection the server ends (a restart, pg_terminate_backend, DROP DATABASE ... FORCE)
  // is an 'error' event of the pool, fatal to the process without a listener; the pool drops that
  // connection and opens another when one is needed.
  pool.on('error', (err) => console.error(`database: idle connection lost: ${err.message}`));
  const limitStatements = statementLimiter(pool);
  withNamedStatements(pool);
  const stopStatistics = keepStatistics(pool, opts.statisticsEveryMs ?? STATISTICS_EVERY_MS);
  const counter = makeCounter();
  const shared = new SharedReads(pool);
  const db = new GuardedKysely({ dialect: sharingReads(new PostgresDialect({ pool }), shared), log: counter.log });
  /**
   * Tables whose row counts triggers keep: set up by trackWrites, or (a process that does not
   * migrate: WORKERS' forks) read once on first need; until then tables are counted with count(*).
   */
  let counted = new Set<string>();
  let countedRead = false;
  const rowCountOf = (table: string) => {
    if (!countedRead) {
      countedRead = true;
      countedTables(pool).then((tables) => { if (counted.size === 0) counted = tables; }, () => undefined);
    }
    return counted.has(table) ? rowCountSql(table) : undefined;
  };
  return {
    name: 'postgres',
    db,
    columnType: (storage) => TYPES[storage],
    encode(storage, value) {
      if (value === null || value === undefined) return null;
      if (storage === 'json' || storage === 'document') return encodeJson(value);
      return value;
    },
    decode(storage, value) {
      if (value === null || value === undefined) return null;
      const decode = DECODERS[storage];
      return decode ? decode(value) : value;
    },
    decodes: new Set(Object.keys(DECODERS) as Storage[]),
    ilike: (column, pattern) => sql`${column}::text ILIKE ${pattern}`,
    valueList: (values, storage) => sql`SELECT unnest(${values}::${sql.raw(TYPES[storage])}[])`,
    // OFFSET 0 keeps the planner from flattening the subquery back into a join.
    joinProbe: (table, alias, on) => sql`CROSS JOIN LATERAL (SELECT * FROM ${sql.table(table)} AS ${sql.id(alias)} WHERE ${on} OFFSET 0) AS ${sql.id(alias)}`,
    unnestRows: (types) => sql`unnest(${sql.join(types.map((type) => sql`${null}::${sql.raw(type)}[]`))})`,
    regex: (column, pattern, ci) => (ci ? sql`${column}::text ~* ${pattern}` : sql`${column}::text ~ ${pattern}`),
    async execScript(statements) {
      // No parameters: the simple query protocol runs them all in one implicit transaction.
      assertOutsideTransaction();
      if (statements.length > 0) await pool.query(statements.join(';\n'));
    },
    async listTables() {
      const rows = await sql<{ table_name: string; column_name: string }>`SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()`.execute(db);
      const out = new Map<string, Set<string>>();
      for (const r of rows.rows) out.set(r.table_name, (out.get(r.table_name) ?? new Set()).add(r.column_name));
      return out;
    },
    ...directReads(db, shared, counter.log),
    probeKey: (key) => key,
    sortsNullsFirst: false,
    json: postgresJson,
    queryCount: counter.count,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max ?? 10 }),
    // Every write statement on a tracked table bumps a counter in its transaction (postgres-generation.ts).
    freeGeneration: false,
    generationSql: GENERATION_SQL,
    // Whole tables' exact counts, kept by triggers once trackWrites set them up (postgres-row-counts.ts).
    rowCountSql: rowCountOf,
    writeGeneration: async () => (await sql<{ g: string }>`SELECT ${GENERATION_SQL} AS g`.execute(db)).rows[0]?.g ?? null,
    trackWrites: async (tables) => {
      assertOutsideTransaction();
      await trackWrites(pool, tables);
      counted = await keepRowCounts(pool, tables);
      countedRead = true;
    },
    lockTable: async (trx, table) => {
      await sql`LOCK TABLE ${sql.table(table)} IN SHARE ROW EXCLUSIVE MODE`.execute(trx);
    },
    lockScope: async (trx, scope) => {
      await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`netsot:${scope}`}, 0))`.execute(trx);
    },
    tryLockScope: async (trx, scope) => {
      const { rows } = await sql<{ locked: boolean }>`SELECT pg_try_advisory_xact_lock(hashtextextended(${`netsot:${scope}`}, 0)) AS "locked"`.execute(trx);
      return rows[0]?.locked === true;
    },
    lockForUpdate: (query) => query.forUpdate() as typeof query,
    async compressFast(table, columns) {
      assertOutsideTransaction();
      const set = columns.map((c) => `ALTER COLUMN "${c}" SET COMPRESSION lz4`).join(', ');
      // Before PostgreSQL 14 the clause does not parse; a server built without lz4 refuses the method.
      await pool.query(`DO $$ BEGIN ALTER TABLE "${table}" ${set}; EXCEPTION WHEN syntax_error OR feature_not_supported THEN NULL; END $$`);
    },
    async retypeColumns(table, columns) {
      assertOutsideTransaction();
      const current = await pool.query<{ column_name: string; data_type: string }>('SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1', [table]);
      const types = new Map(current.rows.map((r) => [r.column_name, r.data_type]));
      const changes = columns.filter((c) => types.has(c.name) && types.get(c.name) !== TYPES[c.storage]);
      if (changes.length === 0) return;
      await pool.query(`ALTER TABLE "${table}" ${changes.map((c) => `ALTER COLUMN "${c.name}" TYPE ${TYPES[c.storage]} USING "${c.name}"::${TYPES[c.storage]}`).join(', ')}`);
    },
    limitStatements,
    errorKind: postgresErrorKind,
    async regexError(exec, pattern) {
      if (insideTransaction()) return null;
      try {
        await sql`SELECT '' ~ ${pattern}`.execute(exec);
        return null;
      } catch (err) {
        const kind = postgresErrorKind(err);
        if (kind?.kind === 'invalid_regex') return kind.message;
        throw err;
      }
    },
    notify: async (exec, channel) => {
      await sql`SELECT pg_notify(${scopedChannel(channel, opts.schema)}, '')`.execute(exec);
    },
    listen: (channel, onNotify) => listenOn(url, opts.schema, scopedChannel(channel, opts.schema), onNotify),
    close: async () => {
      await stopStatistics();
      await db.destroy();
    },
  };
}

/** A channel per schema, so databases sharing a server (test runs) do not wake each other. */
function scopedChannel(channel: string, schema: string | undefined): string {
  return schema ? `${channel}_${schema}` : channel;
}

/** LISTEN on a connection of its own (a pooled one would be handed to others); reconnects when it drops. */
async function listenOn(url: string, schema: string | undefined, channel: string, onNotify: () => void): Promise<() => Promise<void>> {
  let client: pg.Client | undefined;
  let stopped = false;
  const open = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url, options: schema ? `-c search_path=${schema}` : undefined });
    next.on('notification', (msg) => { if (msg.channel === channel) onNotify(); });
    next.on('error', () => undefined);
    next.on('end', () => {
      if (stopped) return;
      // A dropped connection may have missed notifications: wake once, then listen again.
      onNotify();
      setTimeout(() => { if (!stopped) open().catch(() => undefined); }, 1000).unref();
    });
    await next.connect();
    await next.query(`LISTEN "${channel.replace(/"/g, '""')}"`);
    client = next;
  };
  await open();
  return async () => {
    stopped = true;
    await client?.end().catch(() => undefined);
  };
}
