import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { makeApp } from '../helpers/app.js';
import { loadConfig } from '../../src/core/config.js';
import { idleJobs } from '../../src/jobs/dispatch.js';
import type { TestApp } from '../helpers/app.js';
import type { Config } from '../../src/core/config.js';

/** The JOBS_ROOT of the jobs tests. */
export const FIXTURE_ROOT = path.resolve(import.meta.dirname, 'fixtures/root');

export type JobsTestApp = TestApp & {
  /** Resolves once every job this app dispatched has ended. */
  idle(): Promise<void>;
  /** The job record named `name` (enabled first when `enable`). */
  job(name: string, opts?: { enable?: boolean }): Promise<any>;
};

/**
 * An app whose jobs come from `root`, on a database worker threads can open: PostgreSQL when the
 * tests run there, else a SQLite file in a fresh temporary folder.
 */
export async function makeJobsApp(opts: { root?: string; jobs?: Partial<Config['jobs']>; queue?: Config['queue'] } = {}): Promise<JobsTestApp> {
  const dir = mkdtempSync(path.join(tmpdir(), 'jobs-test-'));
  const defaults = loadConfig({}).jobs;
  const t = await makeApp({ databaseUrl: `sqlite:${path.join(dir, 'db.sqlite3')}`, jobs: { ...defaults, root: opts.root ?? FIXTURE_ROOT, schedulerMs: 0, ...opts.jobs }, ...(opts.queue ? { queue: opts.queue } : {}) });
  const close = t.close;
  return {
    ...t,
    idle: () => idleJobs(t.app.services),
    async job(name, { enable = true } = {}) {
      const res = await t.call('GET', `/api/extras/jobs/?name=${encodeURIComponent(name)}`);
      const job = res.body.results[0];
      if (!job) throw new Error(`no job named ${name}`);
      if (enable && !job.enabled) return (await t.call('PATCH', `/api/extras/jobs/${job.id}/`, { enabled: true })).body;
      return job;
    },
    async close() {
      await close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
