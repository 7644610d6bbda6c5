import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Where a repository's working copy lives: `<GIT_ROOT>/<slug>`. */
export function repositoryFolder(root: string, slug: string): string {
  return path.resolve(root, slug);
}

/** Clones the repository, or fetches and checks out its branch; returns the head commit. */
export async function ensureWorkingCopy(folder: string, repo: Record<string, unknown>): Promise<string> {
  const branch = String(repo.branch || 'main');
  if (!existsSync(path.join(folder, '.git'))) {
    mkdirSync(path.dirname(folder), { recursive: true });
    await run('git', ['clone', '--quiet', '--branch', branch, String(repo.remote_url), folder]);
  } else {
    await run('git', ['-C', folder, 'fetch', '--quiet', 'origin', branch]);
    await run('git', ['-C', folder, 'reset', '--quiet', '--hard', `origin/${branch}`]);
  }
  return (await run('git', ['-C', folder, 'rev-parse', 'HEAD'])).stdout.trim();
}

/** Puts the working copy back on `head` (after a failed sync, so the files match the content left in place). */
export async function revertWorkingCopy(folder: string, head: string): Promise<void> {
  await run('git', ['-C', folder, 'reset', '--quiet', '--hard', head]);
}

/** Fetches the branch without touching the working copy (cloning it first when missing); returns `git diff --name-status` lines from the local head to the remote's. */
export async function diffRemote(folder: string, repo: Record<string, unknown>): Promise<string[]> {
  const branch = String(repo.branch || 'main');
  if (!existsSync(path.join(folder, '.git'))) {
    mkdirSync(path.dirname(folder), { recursive: true });
    await run('git', ['clone', '--quiet', '--no-checkout', '--branch', branch, String(repo.remote_url), folder]);
    return (await run('git', ['-C', folder, 'ls-tree', '-r', '--name-only', `origin/${branch}`])).stdout.split('\n').filter(Boolean).map((file) => `A\t${file}`);
  }
  await run('git', ['-C', folder, 'fetch', '--quiet', 'origin', branch]);
  return (await run('git', ['-C', folder, 'diff', '--name-status', 'HEAD', `origin/${branch}`])).stdout.split('\n').filter(Boolean);
}
