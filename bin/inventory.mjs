#!/usr/bin/env node
// Runs the CLI from build/ (src/ compiled to JavaScript), building it first when it is missing or
// older than src/ (scripts/build-server.mjs). Where it cannot be built (no esbuild, a read-only
// install), the TypeScript runs through tsx instead.
import { ensureBuilt } from '../scripts/build-server.mjs';

let built = true;
try {
  await ensureBuilt();
} catch (err) {
  built = false;
  console.error(`running src/ through tsx: the build failed (${err instanceof Error ? err.message : err})`);
}
if (built) await import('../build/cli.js');
else {
  (await import('tsx/esm/api')).register();
  await import('../src/cli.ts');
}
