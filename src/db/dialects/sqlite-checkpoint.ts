import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * The worker's code (plain CommonJS, so it needs no TypeScript loader): its own connection to
 * the database file, a PASSIVE checkpoint every `every` ms. In WAL mode a checkpoint by another
 * connection neither blocks nor waits for the service's reads and writes. PASSIVE never empties
 * a log that writers keep appending to (a long bulk load grew one to 7 GB): once the log holds
 * more than `walLimitBytes`, a TRUNCATE checkpoint waits (up to a second) for the writer in turn,
 * copies what PASSIVE left and cuts the file to nothing; writers wait for it as for any writer.
 */
const WORKER_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 1000');
db.pragma('journal_size_limit = ' + workerData.walLimitBytes);
const pageSize = db.pragma('page_size', { simple: true });
const checkpoint = (mode) => db.pragma('wal_checkpoint(' + mode + ')')[0];
const tick = () => {
  try {
    const passive = checkpoint('PASSIVE');
    if (passive.log * pageSize > workerData.walLimitBytes) checkpoint('TRUNCATE');
  } catch { /* busy: the next tick retries */ }
};
const timer = setInterval(tick, workerData.every);
parentPort.on('message', () => { clearInterval(timer); tick(); db.close(); parentPort.close(); });
`;

/**
 * WAL pages go back into the database file from a worker thread on a timer, never in a request:
 * not in the commit that crosses SQLite's threshold (a bulk write would pay for copying the
 * whole log) and not on the event loop between requests. `onFail` runs if the worker dies (the
 * caller falls back to SQLite's own checkpoints). Returns the stop: a last checkpoint, then the
 * worker ends (awaited, so no exit cuts a checkpoint short).
 */
export function checkpointInWorker(file: string, onFail: () => void, opts: { walLimitBytes: number; every?: number }): () => Promise<void> {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, every: opts.every ?? 1000, driver, walLimitBytes: opts.walLimitBytes } });
  worker.unref();
  worker.on('error', onFail);
  const ended = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return async () => {
    worker.ref(); // the loop now waits for the worker's end
    worker.postMessage('stop');
    await ended;
  };
}

/**
 * The checkpoint thread only while there is something to checkpoint (SQLITE_CHECKPOINT_IDLE_MS):
 * the thread is a second JavaScript isolate with its own connection, about 17 MB of RSS. The
 * event loop looks at `changes` (the connection's write generation: its own commits and any other
 * connection's, job threads included) every `every` ms, a few microseconds; once it has not moved
 * for `idleMs` the thread ends (after a last checkpoint) and the next write starts a new one.
 * The thread lives from the start (the start's own writes, a log left by an earlier run).
 * While the connection is busy (a streamed read holds it) the look counts as a write.
 */
export function checkpointWhileWriting(file: string, onFail: () => void, opts: { walLimitBytes: number; idleMs: number; changes: () => string; every?: number }): () => Promise<void> {
  const every = opts.every ?? 1000;
  let failed = false;
  const start = () => checkpointInWorker(file, () => { failed = true; onFail(); }, { walLimitBytes: opts.walLimitBytes, every });
  let stopThread: (() => Promise<void>) | null = start();
  let seen = opts.changes();
  let quietMs = 0;
  let ending = Promise.resolve();
  const timer = setInterval(() => {
    if (failed) return clearInterval(timer);
    const now = readChanges(opts.changes);
    if (now === null || now !== seen) {
      seen = now ?? seen;
      quietMs = 0;
      stopThread ??= start();
      return;
    }
    quietMs += every;
    if (stopThread && quietMs >= opts.idleMs) {
      ending = stopThread();
      stopThread = null;
    }
  }, every);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await Promise.all([ending, stopThread?.()]);
  };
}

/** The generation, or null while the connection cannot run a statement (a streamed read is open on it). */
function readChanges(changes: () => string): string | null {
  try {
    return changes();
  } catch {
    return null;
  }
}
