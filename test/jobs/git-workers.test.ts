import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readFile, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FIXTURE_ROOT } from './helpers.js';
import { makeProcessesApp, stopWorker, until } from './worker-processes.js';
import type { ChildProcess } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import type { ProcessesApp } from './worker-processes.js';

const dir = mkdtempSync(path.join(tmpdir(), 'git-workers-'));
const origin = path.join(dir, 'origin');
const bare = path.join(dir, 'served.git');
/** The second worker's GIT_ROOT: empty, shared with no other process. */
const otherRoot = path.join(dir, 'other-machine');
/** A loopback dumb-HTTP git server (remote URLs are http(s); there is no network here). */
const server = createServer((req, res) => readFile(path.join(bare, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)), (err, body) => {
  res.statusCode = err ? 404 : 200;
  res.end(err ? '' : body);
}));
const git = (...args: string[]) => execFileSync('git', ['-C', origin, ...args], { env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@x', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@x' } });

/** Commits a version of the repository's job (its result names the version) and publishes it. */
function commitJob(version: string): void {
  writeFileSync(path.join(origin, 'jobs', 'hello.ts'), `export const Hello = { meta: { name: 'Hello from Git', has_sensitive_variables: false }, async run() { return '${version}'; } };\n`);
  git('add', '-A');
  git('commit', '--quiet', '-m', version);
  execFileSync('git', ['-C', origin, 'push', '--quiet', '--force', bare, 'main']);
  execFileSync('git', ['-C', bare, 'update-server-info']);
}

let t: ProcessesApp;
before(async () => {
  mkdirSync(path.join(origin, 'jobs'), { recursive: true });
  execFileSync('git', ['init', '--quiet', '--initial-branch', 'main', origin]);
  execFileSync('git', ['init', '--quiet', '--bare', bare]);
  commitJob('v1');
  mkdirSync(otherRoot);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t = await makeProcessesApp({ root: FIXTURE_ROOT });
});
after(async () => {
  await t.close();
  if (server.listening) await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

const FAST = { QUEUE_POLL_MS: '200' };
const resultOf = (id: string) => async () => (await t.call('GET', `/api/extras/job-results/${id}/`)).body;
const ended = (r: any) => ['SUCCESS', 'FAILURE'].includes(r.status.value);

/** Syncs the repository on a worker sharing the service's GIT_ROOT (the only one claiming while it runs). */
async function syncOnServiceMachine(repoId: string): Promise<void> {
  const worker = await t.startWorker(FAST);
  try {
    const res = await t.call('POST', `/api/extras/git-repositories/${repoId}/sync/`);
    assert.equal(res.status, 200, res.raw);
    const done = await until(resultOf(res.body.job_result.id), ended);
    assert.equal(done.status.value, 'SUCCESS', JSON.stringify(done));
  } finally {
    await stopWorker(worker);
  }
}

async function runHello(jobId: string): Promise<any> {
  const res = await t.call('POST', `/api/extras/jobs/${jobId}/run/`, { data: {} });
  assert.equal(res.status, 201, res.raw);
  return until(resultOf(res.body.job_result.id), ended);
}

describe('a job from a Git repository run by a worker that shares no folder with the service', () => {
  it('should clone the repository at its current head, and move to the new head after the next sync', async () => {
    const remote = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const repo = await t.call('POST', '/api/extras/git-repositories/', { name: 'Remote Jobs', slug: 'remote_jobs', remote_url: remote, branch: 'main', provided_contents: ['extras.job'] });
    assert.equal(repo.status, 201, repo.raw);
    await syncOnServiceMachine(repo.body.id);
    const job = (await t.call('GET', '/api/extras/jobs/?module_name=remote_jobs.jobs.hello')).body.results[0];
    assert.ok(job, 'the sync registered the job');
    assert.equal((await t.call('PATCH', `/api/extras/jobs/${job.id}/`, { enabled: true })).status, 200);

    let other: ChildProcess | undefined = await t.startWorker({ ...FAST, GIT_ROOT: otherRoot });
    try {
      const first = await runHello(job.id);
      assert.equal(first.status.value, 'SUCCESS', JSON.stringify(first));
      assert.equal(first.result, 'v1');
      assert.match(first.worker, new RegExp(`:${other.pid}\\.`));
      const head = (await t.call('GET', `/api/extras/git-repositories/${repo.body.id}/`)).body.current_head;
      assert.equal(execFileSync('git', ['-C', path.join(otherRoot, 'remote_jobs'), 'rev-parse', 'HEAD']).toString().trim(), head);

      // The other worker pauses (it claims nothing) while the service's machine syncs a new commit.
      commitJob('v2');
      other.kill('SIGSTOP');
      try {
        await syncOnServiceMachine(repo.body.id);
      } finally {
        other.kill('SIGCONT');
      }
      const second = await runHello(job.id);
      assert.equal(second.status.value, 'SUCCESS', JSON.stringify(second));
      assert.equal(second.result, 'v2', 'the worker fetched and checked out the new head, and loaded the new code');
      assert.match(second.worker, new RegExp(`:${other.pid}\\.`));

      // A worker that cannot obtain the code fails the run, saying why.
      rmSync(path.join(otherRoot, 'remote_jobs'), { recursive: true, force: true });
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      const third = await runHello(job.id);
      assert.equal(third.status.value, 'FAILURE', JSON.stringify(third));
      assert.match(third.result.exc_message, /Unable to obtain the code of Git repository "Remote Jobs" at commit [0-9a-f]{40}/);
      const logs = (await t.call('GET', `/api/extras/job-results/${third.id}/logs/`)).body;
      assert.ok(logs.some((l: any) => l.log_level.value === 'error' && l.message.includes('Unable to obtain the code')), JSON.stringify(logs));
      assert.equal(existsSync(path.join(otherRoot, 'remote_jobs')), false);
    } finally {
      if (other) await stopWorker(other);
      other = undefined;
    }
  });
});
