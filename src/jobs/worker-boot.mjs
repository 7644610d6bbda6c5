// Entry of a job worker thread. Run from src/ (the tests, through tsx) the worker's module is
// TypeScript and this thread needs tsx's loader, as bin/inventory.mjs did; run from the build
// (build/, plain JavaScript) it needs none: a .ts job file registers the loader when it is
// first imported (src/jobs/catalog.ts).
import { workerData } from 'node:worker_threads';

if (workerData.entry.endsWith('.ts')) (await import('tsx/esm/api')).register();
await import(workerData.entry);
