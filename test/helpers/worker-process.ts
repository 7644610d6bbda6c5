import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import type { ChildProcess } from 'node:child_process';

/** How a child process ended: its exit code, or the signal that ended it, and what it printed. */
export type Exit = { code: number | null; signal: NodeJS.Signals | null; output: string };

/** A spawned `inventory worker`. `said(text)` resolves once its output holds `text`. */
export type WorkerProcess = { child: ChildProcess; said(text: string): Promise<void>; exited: Promise<Exit>; output(): string };

const CLI = path.resolve(import.meta.dirname, '../../src/cli.ts');

/** A TCP port free on 127.0.0.1 now (the system picks it), for a server process started next. */
export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * Starts `inventory worker` with `env` (over this process's environment); resolves once it says it
 * runs, or rejects with its output if it exits first. Its stdout and stderr are both kept.
 */
export async function spawnWorker(env: NodeJS.ProcessEnv): Promise<WorkerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'worker'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const waiting: { text: string; resolve: () => void }[] = [];
  const keep = (chunk: Buffer) => {
    out += String(chunk);
    for (const w of waiting.filter((x) => out.includes(x.text))) w.resolve();
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, output: out })));
  const said = (text: string) => (out.includes(text) ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ text, resolve })));
  await Promise.race([said(' running'), exited.then((end) => { throw new Error(`worker exited (${end.code ?? end.signal}) before running: ${end.output}`); })]);
  return { child, said, exited, output: () => out };
}

/** Sends `signal` (SIGTERM unless told otherwise) to a child unless it has ended; resolves with how it ended. */
export function stopProcess(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => {
    child.once('exit', (code, endSignal) => resolve({ code, signal: endSignal }));
    child.kill(signal);
  });
}

/** Drops the pg-boss schema a test's processes made beside its database's own. */
export async function dropPgBossSchema(databaseUrl: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}
