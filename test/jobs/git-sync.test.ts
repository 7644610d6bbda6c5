import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFile, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeJobsApp } from './helpers.js';
import type { JobsTestApp } from './helpers.js';

let t: JobsTestApp;
const dir = mkdtempSync(path.join(tmpdir(), 'git-sync-'));
const origin = path.join(dir, 'origin');
const bare = path.join(dir, 'served.git');
/** A loopback dumb-HTTP git server (the reference accepts only http(s) remote URLs; there is no network here). */
const server = createServer((req, res) => readFile(path.join(bare, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)), (err, body) => {
  res.statusCode = err ? 404 : 200;
  res.end(err ? '' : body);
}));
/** Publishes the origin's commits to the served bare repository. */
function publish(): void {
  execFileSync('git', ['-C', origin, 'push', '--quiet', '--force', bare, 'main']);
  execFileSync('git', ['-C', bare, 'update-server-info']);
}
const git = (...args: string[]) => execFileSync('git', ['-C', origin, ...args], { env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@x', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@x' } });

before(async () => {
  mkdirSync(path.join(origin, 'config_contexts'), { recursive: true });
  execFileSync('git', ['init', '--quiet', '--initial-branch', 'main', origin]);
  writeFileSync(path.join(origin, 'config_contexts', 'ntp.json'), JSON.stringify({ _metadata: { name: 'ntp', weight: 100 }, ntp: ['10.0.0.1'] }));
  writeFileSync(path.join(origin, 'config_contexts', 'dns.yaml'), '_metadata:\n  name: dns\ndns: [10.0.0.53]\n');
  git('add', '.');
  git('commit', '--quiet', '-m', 'first');
  execFileSync('git', ['init', '--quiet', '--bare', bare]);
  publish();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t = await makeJobsApp({ jobs: { gitRoot: path.join(dir, 'clones') } });
});
after(async () => {
  await t.close();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

async function sync(id: string) {
  const res = await t.call('POST', `/api/extras/git-repositories/${id}/sync/`);
  assert.equal(res.status, 200, res.raw);
  await t.idle();
  return (await t.call('GET', `/api/extras/job-results/${res.body.job_result.id}/`)).body;
}

describe('POST /api/extras/git-repositories/{id}/sync/', () => {
  it('should load the config contexts of a repository, and remove the one a later commit removes', async () => {
    const repo = await t.call('POST', '/api/extras/git-repositories/', { name: 'Contexts', remote_url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, branch: 'main', provided_contents: ['extras.configcontext'] });
    assert.equal(repo.status, 201, repo.raw);
    const first = await sync(repo.body.id);
    assert.equal(first.status.value, 'SUCCESS', JSON.stringify(first));
    const names = async () => (await t.call('GET', `/api/extras/config-contexts/?owner_object_id=${repo.body.id}`)).body.results.map((c: any) => c.name).sort();
    assert.deepEqual(await names(), ['dns', 'ntp']);
    git('rm', '--quiet', 'config_contexts/dns.yaml');
    git('commit', '--quiet', '-m', 'drop dns');
    publish();
    const second = await sync(repo.body.id);
    assert.equal(second.status.value, 'SUCCESS');
    assert.deepEqual(await names(), ['ntp']);
  });
});
