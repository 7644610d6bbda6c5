import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { REPO_DIR } from './env.js';
import { ensureBuilt } from '../../scripts/build-server.mjs';

/**
 * How a script is started: the service (src/server.ts) as `npm start` starts it,
 * `sh scripts/start.sh` (build/ made when stale, then node `exec`ed with the start's memory
 * settings: the child's pid is the service's own); another module of src/ from build/; with
 * BENCH_FROM_SOURCE=1 a module of src/ through tsx (as before the build step, for A/B runs; then
 * without the start script's settings); any other script (the floor server) through tsx.
 */
async function commandOf(script: string): Promise<{ file: string; args: string[] }> {
  const source = /^src\/(.+)\.ts$/.exec(script);
  if (!source || process.env.BENCH_FROM_SOURCE === '1') return { file: process.execPath, args: ['--import', 'tsx', script] };
  if (script === 'src/server.ts') return { file: 'sh', args: [path.join('scripts', 'start.sh')] };
  await ensureBuilt();
  return { file: process.execPath, args: [path.join('build', `${source[1]}.js`)] };
}

/** A service running as a child process (`scripts/start.sh`, see `commandOf`), so its memory is its own. */
export type ChildServer = { pid: number; url: string; output(): string; stop(): Promise<void> };

/** Children still running, so an interrupted run can stop them (see `stopAllChildren`). */
const live = new Set<() => Promise<void>>();

/** Stops every child this process started and has not stopped yet. */
export async function stopAllChildren(): Promise<void> {
  await Promise.all([...live].map((stop) => stop()));
}

/** A free port: any (the kernel's choice), or the first free one of BENCH_PORTS=<from>-<to> on a shared machine. */
export async function freePort(): Promise<number> {
  const range = /^(\d+)-(\d+)$/.exec(process.env.BENCH_PORTS ?? '');
  if (!range) return listenOn(0);
  for (let port = Number(range[1]); port <= Number(range[2]); port += 1) {
    const got = await listenOn(port).catch(() => null);
    if (got !== null) return got;
  }
  throw new Error(`BENCH_PORTS=${process.env.BENCH_PORTS}: no free port`);
}

function listenOn(wanted: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(wanted, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Starts `script` with `env` (PORT is chosen here) and waits until `healthPath` answers 200. */
export async function startChild(opts: { script: string; args?: string[]; env: Record<string, string>; healthPath: string; timeoutMs?: number }): Promise<ChildServer> {
  const port = await freePort();
  const command = await commandOf(opts.script);
  const child = spawn(command.file, [...command.args, ...(opts.args ?? [])], {
    cwd: REPO_DIR, env: { ...process.env, ...opts.env, HOST: '127.0.0.1', PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const keep = (chunk: Buffer) => { log = (log + chunk.toString()).slice(-20000); };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exited: number | null | undefined;
  const exit = new Promise<void>((resolve) => child.once('exit', (code) => { exited = code; resolve(); }));
  const stop = async () => {
    live.delete(stop);
    if (exited !== undefined) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exit;
    clearTimeout(timer);
  };
  live.add(stop);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (opts.timeoutMs ?? 120_000);
  for (;;) {
    if (exited !== undefined) throw new Error(`${opts.script} exited (${exited}) before it was ready:\n${log}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${opts.script} not ready after ${opts.timeoutMs ?? 120_000} ms:\n${log}`);
    }
    try {
      const res = await fetch(url + opts.healthPath);
      await res.arrayBuffer();
      if (res.status === 200) break;
    } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    pid: child.pid!,
    url,
    output: () => log,
    stop,
  };
}
