// Compiles the service's TypeScript (src/) to JavaScript in build/ once, file for file (esbuild,
// ES modules, no bundling: build/ mirrors src/, so paths relative to a module stay true), and
// copies the files src/ reads beside its modules (JSON, CSS, the worker's .mjs). The service then
// starts on plain `node`, without a TypeScript loader: no loader thread, no source text with
// inline source maps in the heap, no transform at start (issue 22: memory and start-up).
//
//   node scripts/build-server.mjs             # build (the `prepare` script, after `npm install`)
//   node scripts/build-server.mjs --if-stale  # build only when build/ is missing or older than src/
//
// `npm start`, the `inventory` binary and the bench run the second form first. Staleness: the
// list of files below src/ with their sizes and modification times, and this script's own, as
// recorded in build/.source-stamp by the last build. The tests keep running src/ through tsx.
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(root, 'src');
/** The output folder: one level below the root, as src/ is (modules read `../../../package.json`). */
export const OUT = join(root, 'build');
const STAMP = '.source-stamp';

/** Every file below `dir`, relative to it, sorted. */
function filesBelow(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesBelow(full).map((f) => join(entry.name, f)));
    else if (entry.isFile()) out.push(entry.name);
  }
  return out.sort();
}

/** What the build is made from: src/'s files (name, size, mtime), this script and the tsconfig. */
function sourceStamp(files) {
  const hash = createHash('sha256');
  for (const file of files) {
    const s = statSync(join(SRC, file));
    hash.update(`${file}\0${s.size}\0${s.mtimeMs}\n`);
  }
  for (const file of [fileURLToPath(import.meta.url), join(root, 'tsconfig.json')]) hash.update(readFileSync(file));
  return hash.digest('hex');
}

function builtStamp() {
  try {
    return readFileSync(join(OUT, STAMP), 'utf8');
  } catch {
    return '';
  }
}

/** Whether build/ is missing or was built from other sources than src/ holds now. */
export function isStale() {
  return builtStamp() !== sourceStamp(filesBelow(SRC));
}

/**
 * Builds into a fresh folder and puts it in place of build/ (a process starting meanwhile sees
 * the old build or the new one, never half of one). Returns the milliseconds it took.
 */
export async function buildServer() {
  const started = Date.now();
  const require = createRequire(join(root, 'package.json'));
  const { build } = await import(pathToFileURL(require.resolve('esbuild')).href);
  const files = filesBelow(SRC);
  const stamp = sourceStamp(files);
  const tmp = `${OUT}.${process.pid}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const scripts = files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
  await build({
    entryPoints: scripts.map((f) => join(SRC, f)),
    outbase: SRC,
    outdir: tmp,
    bundle: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    tsconfig: join(root, 'tsconfig.json'),
    // Source maps on disk only: read by `node --enable-source-maps`, never loaded otherwise.
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  for (const file of files.filter((f) => !f.endsWith('.ts'))) {
    mkdirSync(dirname(join(tmp, file)), { recursive: true });
    cpSync(join(SRC, file), join(tmp, file));
  }
  writeFileSync(join(tmp, STAMP), stamp);
  rmSync(OUT, { recursive: true, force: true });
  renameSync(tmp, OUT);
  return { ms: Date.now() - started, modules: scripts.length };
}

/** Builds when stale; says so on standard error (standard output may be a log being parsed). */
export async function ensureBuilt() {
  if (!isStale()) return false;
  const { ms, modules } = await buildServer();
  console.error(`service built: ${modules} modules from src/ in ${relative(root, OUT)}/ in ${ms} ms`);
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    if (process.argv.includes('--if-stale')) await ensureBuilt();
    else {
      const { ms, modules } = await buildServer();
      console.log(`service built: ${modules} modules from src/ in ${relative(root, OUT)}/ in ${ms} ms`);
    }
  } catch (err) {
    console.error(`service build failed: ${err instanceof Error ? err.message : err}`);
    process.exit(1);
  }
}
