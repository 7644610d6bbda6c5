import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The commit a working copy has checked out, read from its `.git` files (no process spawned); undefined when there is none. */
export function checkedOutCommit(folder: string): string | undefined {
  const gitDir = path.join(folder, '.git');
  try {
    const head = readFileSync(path.join(gitDir, 'HEAD'), 'utf8').trim();
    if (!head.startsWith('ref: ')) return head;
    const ref = head.slice('ref: '.length);
    if (existsSync(path.join(gitDir, ref))) return readFileSync(path.join(gitDir, ref), 'utf8').trim();
    const packed = readFileSync(path.join(gitDir, 'packed-refs'), 'utf8').split('\n').find((line) => line.endsWith(` ${ref}`));
    return packed?.split(' ')[0];
  } catch {
    return undefined;
  }
}

async function hasCommit(folder: string, head: string): Promise<boolean> {
  return run('git', ['-C', folder, 'cat-file', '-e', `${head}^{commit}`]).then(() => true, () => false);
}

/** Clones into a folder of its own, then moves it into place, so no other process ever sees half a clone. */
async function cloneAt(folder: string, repo: Record<string, unknown>, head: string): Promise<void> {
  mkdirSync(path.dirname(folder), { recursive: true });
  const staging = `${folder}.clone-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await run('git', ['clone', '--quiet', '--no-checkout', '--branch', String(repo.branch || 'main'), String(repo.remote_url), staging]);
    await run('git', ['-C', staging, 'reset', '--quiet', '--hard', head]);
    // An empty folder is replaced; one another process filled first stays (the caller checks it again).
    renameSync(staging, folder);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Fetches the branch when the commit is not known yet, then checks the commit out. */
async function moveTo(folder: string, repo: Record<string, unknown>, head: string): Promise<void> {
  if (!(await hasCommit(folder, head))) {
    await run('git', ['-C', folder, 'remote', 'set-url', 'origin', String(repo.remote_url)]);
    await run('git', ['-C', folder, 'fetch', '--quiet', 'origin', String(repo.branch || 'main')]);
  }
  await run('git', ['-C', folder, 'reset', '--quiet', '--hard', head]);
}

/**
 * Makes `folder` a working copy of the repository at commit `head` (the reference's
 * `ensure_git_repository` with a head, as each worker does before it loads a repository's jobs):
 * nothing when it is there already, a clone when the folder has none, else a fetch (when the
 * commit is unknown) and a checkout. Processes or threads doing the same at once are tolerated:
 * a failed attempt is retried after looking again. Returns whether the folder changed; throws
 * (git's message) when the commit cannot be obtained.
 */
export async function ensureCheckoutAt(folder: string, repo: Record<string, unknown>, head: string): Promise<boolean> {
  let failure: unknown;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    if (checkedOutCommit(folder) === head) return attempt > 0;
    try {
      if (existsSync(path.join(folder, '.git'))) await moveTo(folder, repo, head);
      else await cloneAt(folder, repo, head);
      if (checkedOutCommit(folder) === head) return true;
    } catch (err) {
      failure = err;
    }
    await new Promise((resolve) => setTimeout(resolve, 100 * (attempt + 1)));
  }
  const message = failure instanceof Error ? ((failure as { stderr?: string }).stderr?.trim() || failure.message) : `commit ${head} is not checked out`;
  throw new Error(message);
}
