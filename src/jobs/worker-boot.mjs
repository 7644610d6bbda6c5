// Entry of a job worker thread: TypeScript through tsx (as bin/inventory.mjs), then the worker's module.
import { register } from 'tsx/esm/api';
import { workerData } from 'node:worker_threads';

register();
await import(workerData.entry);
