import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ensureBuilt, isStale, OUT } from '../../scripts/build-server.mjs';
import { startServer } from '../helpers/server.js';
import type { Server } from '../helpers/server.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const JOBS = path.join(ROOT, 'test/jobs/fixtures/root');

function modulesBelow(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

/** The service compiled to build/ (scripts/build-server.mjs), as `npm start` runs it. */
describe('the built service', () => {
  let server: Server;
  before(async () => {
    await ensureBuilt();
    server = await startServer({ workers: 1, fromBuild: true, env: { JOBS_ROOT: JOBS, JOBS_SCHEDULER_MS: '0' } });
  });
  after(async () => { await server?.stop(); });

  it('should hold a JavaScript module for every TypeScript module of src/, built from the sources there now', () => {
    assert.equal(isStale(), false);
    const missing = modulesBelow(path.join(ROOT, 'src')).filter((f) => !existsSync(path.join(OUT, f.replace(/\.ts$/, '.js'))));
    assert.deepEqual(missing, []);
    assert.ok(existsSync(path.join(OUT, 'jobs/worker-boot.mjs')) && existsSync(path.join(OUT, 'db/defaults.json')));
  });

  it('should run a TypeScript job of JOBS_ROOT in a job thread (tsx registered when the job is imported)', { timeout: 120_000 }, async () => {
    const job = (await server.call('GET', '/api/extras/jobs/?name=Make%20Tags')).body.results[0];
    assert.ok(job, 'the .ts job module was discovered');
    assert.equal((await server.call('PATCH', `/api/extras/jobs/${job.id}/`, { enabled: true })).status, 200);
    const run = await server.call('POST', `/api/extras/jobs/${job.id}/run/`, { data: { names: 'built-a,built-b', color: 'ff0000' } });
    assert.equal(run.status, 201, JSON.stringify(run.body));
    let result: any;
    for (let i = 0; i < 600; i += 1) {
      result = (await server.call('GET', `/api/extras/job-results/${run.body.job_result.id}/`)).body;
      if (['SUCCESS', 'FAILURE'].includes(result.status.value)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(result.status.value, 'SUCCESS', JSON.stringify(result.result));
    assert.equal((await server.call('GET', '/api/extras/tags/?name=built-a&name=built-b')).body.count, 2);
  });

  it('should run the inventory binary from the build', () => {
    const out = spawnSync(process.execPath, [path.join(ROOT, 'bin/inventory.mjs')], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
    assert.equal(out.status, 2, out.stderr);
    assert.match(out.stderr, /usage: inventory <command>/);
    assert.doesNotMatch(out.stderr, /through tsx/);
  });
});

/** The environment a running process was started with (Linux /proc). */
function environmentOf(pid: number): Record<string, string> {
  const pairs = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
  return Object.fromEntries(pairs.map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]));
}

/** `npm start` runs scripts/start.sh: node replaces the shell with the memory settings in place. */
describe('the start script', { skip: process.platform !== 'linux' }, () => {
  it('should serve from the process it started, with MALLOC_ARENA_MAX=2 and the young generation capped first in NODE_OPTIONS', { timeout: 120_000 }, async () => {
    const server = await startServer({ workers: 1, startScript: true, env: { JOBS_SCHEDULER_MS: '0', NODE_OPTIONS: '', MALLOC_ARENA_MAX: '' } });
    try {
      assert.equal((await server.call('GET', '/api/status/')).status, 200);
      assert.match(readFileSync(`/proc/${server.pid}/cmdline`, 'utf8'), /build\/server\.js/);
      const env = environmentOf(server.pid);
      assert.equal(env.MALLOC_ARENA_MAX, '2');
      assert.equal(env.NODE_OPTIONS, '--max-semi-space-size=8');
    } finally {
      await server.stop();
    }
  });

  it('should leave a value of the environment as it is and put NODE_OPTIONS of its own after the cap', { timeout: 120_000 }, async () => {
    const server = await startServer({ workers: 1, startScript: true, env: { JOBS_SCHEDULER_MS: '0', NODE_OPTIONS: '--max-semi-space-size=4', MALLOC_ARENA_MAX: '3' } });
    try {
      const env = environmentOf(server.pid);
      assert.equal(env.MALLOC_ARENA_MAX, '3');
      assert.equal(env.NODE_OPTIONS, '--max-semi-space-size=8 --max-semi-space-size=4');
    } finally {
      await server.stop();
    }
  });
});
